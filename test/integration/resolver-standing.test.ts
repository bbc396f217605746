import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { countStatement, dayOf } from "../../src/db/resolver-days";
import { upsertRegistration } from "../../src/db/resolvers";
import { newId } from "../../src/ids";
import { auctionDayCounts } from "../../src/resolvers/reliability";
import { strike } from "../../src/resolvers/strikes";
import type { ResolverStanding } from "../../src/schemas/resolvers";
import { insertExecutionStatement } from "../support/execution-rows";
import { seedQuote } from "../support/records";

/** GET /v1/resolvers/{address} (docs/reliability.md, "A resolver's record"). */

const app = createApp();
const get = async (address: string) => {
  const res = await app.request(`/v1/resolvers/${address}`, {}, env);
  return { status: res.status, body: (await res.json()) as ResolverStanding & { error?: string } };
};

const RESOLVER = "0x976EA74026E726554dB657fA54763abd0C3a0aa9";

async function failedExecution(quoteId: string, reason: string, at: string) {
  await insertExecutionStatement(env.DB, {
    executionId: newId("x"),
    quoteId,
    status: "failed",
    reason,
    blame: null,
    txHash: null,
    submitter: null,
    gasUsed: null,
    resolver: RESOLVER,
    proceeds: "1",
    takerPays: "1",
    createdAt: at,
    updatedAt: at,
  }).run();
}

describe("GET /v1/resolvers/{address}", () => {
  it("shows the record with its strikes, the failures that were not its fault, and its 7 days", async () => {
    const now = Date.now();
    await upsertRegistration(env.DB, RESOLVER, { name: "zeta" }, new Date(now - 60_000).toISOString());
    const { quote } = await seedQuote(env.DB, { resolver: { address: RESOLVER, name: "zeta", solanaAddress: null } });
    // Its own fault: a strike, with its quote; the taker's and the relay's: listed apart, never counted.
    const demotion = await strike(
      env.DB,
      {
        resolver: RESOLVER,
        event: "x_struck",
        quoteId: quote.quoteId,
        why: "transaction resolver:transfer_failed",
        now,
      },
      () => {},
    );
    await failedExecution(quote.quoteId, "taker:nonce_used", new Date(now - 2_000).toISOString());
    await failedExecution(quote.quoteId, "relay:fee_mismatch", new Date(now - 1_000).toISOString());
    await failedExecution(quote.quoteId, "resolver:insufficient_balance", new Date(now - 500).toISOString());
    // Today: asked 4 times, answered 3 (in 20, 90 and 300 ms), won once.
    const counts = auctionDayCounts({
      asked: [RESOLVER],
      answered: new Set([RESOLVER.toLowerCase()]),
      winner: RESOLVER,
      replyMs: new Map([[RESOLVER.toLowerCase(), 20]]),
    }).get(RESOLVER.toLowerCase());
    const today = new Date(now).toISOString();
    await env.DB.batch([
      countStatement(env.DB, RESOLVER, counts ?? {}, today),
      countStatement(env.DB, RESOLVER, { asked: 3, answered: 2, replies: 2, replies100: 1, replies400: 1 }, today),
      // Three fills broadcast: one settled, one failed through its own fault, one for the taker's reason.
      countStatement(env.DB, RESOLVER, { submitted: 3, settled: 1, failed: 1 }, today),
    ]);

    const { status, body } = await get(RESOLVER.toLowerCase());
    expect(status).toBe(200);
    expect(body).toMatchObject({
      address: RESOLVER,
      name: "zeta",
      demoted: true,
      demotedUntil: demotion?.demotedUntil,
    });
    expect(body.strikes).toEqual([
      {
        at: expect.any(String),
        event: "x_struck",
        quoteId: quote.quoteId,
        reason: "transaction resolver:transfer_failed",
        blame: "resolver",
        demotedUntil: demotion?.demotedUntil,
      },
    ]);
    expect(body.notCounted.map((f) => [f.reason, f.blame, f.quoteId])).toEqual([
      ["relay:fee_mismatch", "relay", quote.quoteId],
      ["taker:nonce_used", "taker", quote.quoteId],
    ]);
    expect(body.days).toHaveLength(7);
    expect(body.days.at(-1)).toMatchObject({
      day: dayOf(today),
      asked: 4,
      answered: 3,
      won: 1,
      submitted: 3,
      settled: 1,
      failed: 1,
      responseRate: 0.75,
      // Settled over settled and its own failures: the taker's failure is not a sample.
      fillRate: 0.5,
      // 20, 90 and 300 ms: the median is in the 100 ms bucket, the 99th percentile in the 400 ms one.
      replyLatency: { p50Ms: 100, p99Ms: 400 },
    });
    expect(body.days.slice(0, 6).every((d) => d.asked === 0 && d.replyLatency === null)).toBe(true);
    expect(body.replyLatency).toEqual({ p50Ms: 100, p99Ms: 400 });
  });

  it("answers 404 not_found for an address it does not know, and 400 for one that is not an address", async () => {
    expect(await get("0x00000000000000000000000000000000000000e1")).toMatchObject({
      status: 404,
      body: { error: "not_found" },
    });
    expect((await get("0x1234")).status).toBe(400);
  });

  it("keeps a strike's history entry once, however often the strike is applied", async () => {
    const address = "0x00000000000000000000000000000000000000e2";
    await upsertRegistration(env.DB, address, { name: "eta" }, new Date().toISOString());
    const event = { resolver: address, event: "rfq_twice", quoteId: null, why: "did not sign", now: Date.now() };
    await strike(env.DB, event, () => {});
    await strike(env.DB, { ...event, now: Date.now() + 1 }, () => {});
    expect((await get(address)).body.strikes.map((s) => s.event)).toEqual(["rfq_twice"]);
  });
});
