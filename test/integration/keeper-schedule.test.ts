import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { KeeperDO } from "../../durable-objects/keeper";
import { expireAllDue } from "../../src/db/quote-status";
import { readQuoteRecord } from "../../src/db/quotes";
import { EXPIRE_EVERY_MS, LIMIT_POLL_MS, PRUNE_EVERY_MS, RETENTION_EVERY_MS } from "../../src/keeper/jobs";
import { seedQuote } from "../support/records";

/** The keeper object's one alarm over its schedule table (docs/settlement.md, "The keeper's alarm"). */
const stub = () => env.KEEPER.get(env.KEEPER.idFromName(`schedule-${crypto.randomUUID()}`));

const rows = async (keeper: ReturnType<typeof stub>) =>
  Object.fromEntries(
    (
      await runInDurableObject(keeper, (_: KeeperDO, state) =>
        state.storage.sql
          .exec<{ job: string; every_ms: number; next_at: number }>("SELECT * FROM keeper_schedule")
          .toArray(),
      )
    ).map((r) => [r.job, r]),
  );

const alarmOf = (keeper: ReturnType<typeof stub>) =>
  runInDurableObject(keeper, (_: KeeperDO, state) => state.storage.getAlarm());

describe("the keeper's schedule", () => {
  it("schedules the hourly prune and retention, the expiry sweep and the limit job on first wake, and no indexer while nothing is followed", async () => {
    const keeper = stub();
    const before = Date.now();
    const { prune, expire, limits, retention, ...others } = await rows(keeper);
    expect(others).toEqual({});
    expect(prune).toMatchObject({ job: "prune", every_ms: PRUNE_EVERY_MS });
    expect(prune?.next_at).toBeGreaterThanOrEqual(before + PRUNE_EVERY_MS - 1_000);
    expect(retention).toMatchObject({ job: "retention", every_ms: RETENTION_EVERY_MS });
    expect(expire).toMatchObject({ job: "expire", every_ms: EXPIRE_EVERY_MS });
    // Limit orders are on in this configuration: their job runs every 5 s, the earliest row.
    expect(limits).toMatchObject({ job: "limits", every_ms: LIMIT_POLL_MS });
    expect(await alarmOf(keeper)).toBe(limits?.next_at);
  });

  it("runs the earliest job when the alarm fires, and arms the alarm for its next run", async () => {
    const keeper = stub();
    const { prune } = await rows(keeper);
    const started = Date.now();
    expect(await runDurableObjectAlarm(keeper)).toBe(true);
    const after = await rows(keeper);
    expect(after.limits?.next_at).toBeGreaterThanOrEqual(started + LIMIT_POLL_MS);
    expect(after.prune?.next_at).toBe(prune?.next_at);
    expect(await alarmOf(keeper)).toBe(Math.min(after.limits?.next_at ?? 0, after.expire?.next_at ?? 0));
  });

  it("records the expiry of a quote nobody reads", async () => {
    const keeper = stub();
    await rows(keeper);
    const { quote } = await seedQuote(env.DB, { expiresAt: new Date(Date.now() - 1_000).toISOString() });
    // The sweep's turn comes now.
    await runInDurableObject(keeper, (_: KeeperDO, state) => {
      state.storage.sql.exec("UPDATE keeper_schedule SET next_at = 0 WHERE job = 'expire'");
    });
    expect(await runDurableObjectAlarm(keeper)).toBe(true);
    const record = await readQuoteRecord(env.DB, quote.quoteId);
    expect(record?.status).toBe("expired");
    expect(record?.timeline.at(-1)?.event).toBe("expired");
  });
});

describe("the expiry sweep", () => {
  it("expires every open quote past its expiry, once, and leaves the rest", async () => {
    const now = Date.now();
    const past = new Date(now - 1_000).toISOString();
    const { quote: due } = await seedQuote(env.DB, { expiresAt: past });
    const { quote: signed } = await seedQuote(env.DB, { expiresAt: past, status: "signed" });
    const { quote: live } = await seedQuote(env.DB, { expiresAt: new Date(now + 60_000).toISOString() });
    const { quote: settled } = await seedQuote(env.DB, { expiresAt: past, status: "settled" });

    expect(await expireAllDue(env.DB, new Date(now).toISOString())).toBeGreaterThanOrEqual(2);
    expect(await expireAllDue(env.DB, new Date(now).toISOString())).toBe(0);

    for (const q of [due, signed]) {
      const record = await readQuoteRecord(env.DB, q.quoteId);
      expect(record?.status).toBe("expired");
      expect(record?.timeline.filter((t) => t.event === "expired")).toEqual([
        { at: past, event: "expired", detail: null },
      ]);
    }
    expect((await readQuoteRecord(env.DB, live.quoteId))?.status).toBe("quoted");
    expect((await readQuoteRecord(env.DB, settled.quoteId))?.status).toBe("settled");
  });
});
