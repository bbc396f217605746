import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { quoteListSql } from "../../src/db/quote-lists";
import type { QuotePage } from "../../src/schemas/quote";
import { seedExecution, seedQuote } from "../support/records";

/** GET /v1/quotes (docs/api.md, "Lists of quotes"): a taker's quotes and a resolver's wins, newest first. */

const app = createApp();
const list = async (query: string) => {
  const res = await app.request(`/v1/quotes?${query}`, {}, env);
  return { status: res.status, body: (await res.json()) as QuotePage & { error?: string; issues?: unknown[] } };
};

/** A taker of its own, and a resolver of its own, so other tests' quotes never show in these lists. */
const TAKER = "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955";
const RESOLVER = "0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f";
const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 10, minute)).toISOString();

async function seedFive() {
  const ids: string[] = [];
  for (let minute = 0; minute < 5; minute++) {
    const { quote } = await seedQuote(env.DB, {
      taker: TAKER,
      recipient: TAKER,
      quotedAt: at(minute),
      // Two of them expired long ago (open then); one still open; two settled.
      expiresAt: minute < 2 ? at(minute + 1) : "2099-01-01T00:00:00.000Z",
      status: minute < 3 ? "quoted" : "settled",
      resolver: {
        address: minute % 2 === 0 ? RESOLVER : "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
        name: "r",
        solanaAddress: null,
      },
    });
    ids.push(quote.quoteId);
  }
  return ids.reverse();
}

describe("GET /v1/quotes", () => {
  it("lists a taker's quotes newest first, page by page, each without offers and timeline, status as of now", async () => {
    const newestFirst = await seedFive();
    const execution = await seedExecution(env.DB, newestFirst[0] as string);
    const first = await list(`taker=${TAKER.toLowerCase()}&limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.quotes.map((q) => q.quoteId)).toEqual(newestFirst.slice(0, 2));
    expect(first.body.quotes[0]).not.toHaveProperty("offers");
    expect(first.body.quotes[0]).not.toHaveProperty("timeline");
    expect(first.body.quotes[0]?.executions.map((e) => e.executionId)).toEqual([execution.executionId]);
    const second = await list(`taker=${TAKER}&limit=2&cursor=${first.body.nextCursor}`);
    const third = await list(`taker=${TAKER}&limit=2&cursor=${second.body.nextCursor}`);
    expect(third.body.nextCursor).toBeNull();
    const older = [...second.body.quotes, ...third.body.quotes];
    expect(older.map((q) => q.quoteId)).toEqual(newestFirst.slice(2));
    expect(older.map((q) => q.status)).toEqual(["quoted", "expired", "expired"]);

    const expired = await list(`taker=${TAKER}&status=expired`);
    expect(expired.body.quotes.map((q) => q.quoteId)).toEqual(newestFirst.slice(3));
    expect((await list(`taker=${TAKER}&chainId=31337`)).body.quotes).toHaveLength(5);
    // A taker's address is one of the chain asked for.
    expect(await list(`taker=${TAKER}&chainId=103`)).toMatchObject({ status: 400, body: { error: "invalid_request" } });
  });

  it("lists the quotes a resolver won, whatever the case of its address", async () => {
    await seedQuote(env.DB, { resolver: { address: RESOLVER, name: "r", solanaAddress: null }, quotedAt: at(30) });
    const { body } = await list(`resolver=${RESOLVER.toLowerCase()}`);
    expect(body.quotes.length).toBeGreaterThan(0);
    expect(body.quotes.every((q) => q.resolver?.address.toLowerCase() === RESOLVER.toLowerCase())).toBe(true);
    expect(body.quotes.map((q) => q.quotedAt)).toEqual([...body.quotes.map((q) => q.quotedAt)].sort().reverse());
  });

  it("lists every quote, newest first, with neither taker nor resolver", async () => {
    const { quote } = await seedQuote(env.DB, { quotedAt: "2099-12-31T00:00:00.000Z" });
    const { status, body } = await list("limit=3");
    expect(status).toBe(200);
    expect(body.quotes[0]?.quoteId).toBe(quote.quoteId);
    expect(body.quotes.map((q) => q.quotedAt)).toEqual([...body.quotes.map((q) => q.quotedAt)].sort().reverse());
  });

  it.each([
    ["both", `taker=${TAKER}&resolver=${RESOLVER}`, "resolver"],
    ["a taker that is no address", "taker=0x1234", "taker"],
    ["a resolver that is not an EVM address", `resolver=${"1".repeat(32)}`, "resolver"],
    ["a cursor the relay did not give out", `taker=${TAKER}&cursor=bm90LWEtY3Vyc29y`, "cursor"],
    ["an unserved chain", `taker=${TAKER}&chainId=5`, "chainId"],
    ["a limit over 100", `taker=${TAKER}&limit=101`, "limit"],
  ])("answers 400 invalid_request for %s", async (_, query, path) => {
    const { status, body } = await list(query);
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: "invalid_request", issues: [expect.objectContaining({ path })] });
  });

  it("reads a page from its index, in order, without a sort", async () => {
    for (const [by, address, index] of [
      ["taker", TAKER, "quotes_by_taker"],
      ["resolver", RESOLVER.toLowerCase(), "quotes_by_resolver"],
      ["all", null, "quotes_by_time"],
    ] as const) {
      const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${quoteListSql(by)}`)
        .bind(new Date().toISOString(), address, at(59), "~", null, null, 51)
        .all<{ detail: string }>();
      const plan = results.map((r) => r.detail).join("; ");
      expect(plan).toContain(`USING INDEX ${index}`);
      expect(plan).not.toMatch(/TEMP B-TREE/);
    }
  });
});
