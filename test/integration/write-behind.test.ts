import { env, evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { type AuctionWrite, auctionWrites } from "../../src/auction/store";
import { allCorridors, corridorTag } from "../../src/chains/corridor-keys";
import { loadConfig } from "../../src/config/load";
import { readQuoteRecord } from "../../src/db/quotes";
import type { DayCounts } from "../../src/db/resolver-days";
import { WriteBehind } from "../../src/db/write-behind";
import { newId } from "../../src/ids";
import { watchingBatches } from "../support/d1-batches";
import { sampleOffers, sampleQuote, sampleTimeline } from "../support/records";

/**
 * Write-behind (docs/architecture.md, "Write-behind"): a corridor's writes are durable in its own
 * storage first and reach D1 behind, in order, once each, across eviction and D1 failures; a read that
 * misses a quote in D1 has its corridor write it through.
 */

const app = createApp();
const corridorKey = allCorridors(loadConfig(env.RELAY_CONFIG))[0]?.key ?? "";
const corridor = () => env.CORRIDOR.get(env.CORRIDOR.idFromName(corridorKey));
const RESOLVER = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";

function quoteWrite(): { write: AuctionWrite; quoteId: string } {
  const quote = sampleQuote({ quoteId: newId("q", corridorTag(corridorKey)) });
  const offers = sampleOffers(quote).map((o) => ({ ...o, signature: `0x${"22".repeat(65)}` }));
  const counters: { byAddress: [string, DayCounts][] } = { byAddress: [[RESOLVER, { asked: 1, answered: 1, won: 1 }]] };
  return {
    quoteId: quote.quoteId,
    write: {
      kind: "quote",
      quote,
      offers,
      timeline: sampleTimeline(quote),
      counters: { ...counters, at: quote.quotedAt },
    },
  };
}

const asked = async () =>
  (
    await env.DB.prepare("SELECT SUM(asked) AS n FROM resolver_days WHERE address = ?").bind(RESOLVER).first<{
      n: number | null;
    }>()
  )?.n ?? 0;

/** A D1 whose batches fail, before or after they run. */
function failingDb(mode: "before" | "after", reads = true): D1Database {
  return new Proxy(env.DB, {
    get(target, prop) {
      if (prop === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          if (mode === "after") await target.batch(statements);
          throw new Error(`D1 batch failed ${mode} running`);
        };
      }
      if (prop === "prepare" && !reads) {
        return (sql: string) =>
          sql.startsWith("SELECT")
            ? { bind: () => ({ all: () => Promise.reject(new Error("D1 down")) }) }
            : target.prepare(sql);
      }
      const value = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** Runs `f` with a write-behind queue over the corridor object's own storage. */
const inCorridor = <T>(db: D1Database, f: (queue: WriteBehind<AuctionWrite>) => Promise<T>) =>
  runInDurableObject(corridor(), (_, state) => f(new WriteBehind(state.storage.sql, db, auctionWrites, "test")));

describe("write-behind of a corridor's writes", () => {
  it("keeps writes queued while D1 fails and, after eviction, writes them in order", async () => {
    const { write, quoteId } = quoteWrite();
    const replies = { valid: 2, rejected: 0, declined: 1, noReply: 0, late: 1 };
    await inCorridor(failingDb("before"), async (queue) => {
      queue.add(write);
      queue.add({ kind: "replies", quoteId, replies });
      await expect(queue.drain()).rejects.toThrow(/failed before/);
      expect(queue.size()).toBe(2);
      // The alarm tries again later each time D1 fails: 2 s, 4 s, … up to 30 s.
      expect(await queue.drainOrRetryAt(0)).toBe(2_000);
      expect(await queue.drainOrRetryAt(0)).toBe(4_000);
      for (let i = 0; i < 5; i++) await queue.drainOrRetryAt(0);
      expect(await queue.drainOrRetryAt(0)).toBe(30_000);
    });
    expect(await readQuoteRecord(env.DB, quoteId)).toBeNull();

    await evictDurableObject(corridor());
    await inCorridor(env.DB, async (queue) => {
      expect(queue.size()).toBe(2);
      expect(await queue.drainOrRetryAt()).toBeNull();
      expect(queue.size()).toBe(0);
    });
    // The replies update ran after the insert: in the other order it would have found no row.
    expect((await readQuoteRecord(env.DB, quoteId))?.replies).toEqual(replies);
  });

  it("applies a write once when its batch landed but the object lost the answer", async () => {
    const { write, quoteId } = quoteWrite();
    const before = await asked();
    await inCorridor(failingDb("after", false), async (queue) => {
      queue.add(write);
      await expect(queue.drain()).rejects.toThrow();
      expect(queue.size()).toBe(1);
    });
    expect(await readQuoteRecord(env.DB, quoteId)).not.toBeNull();

    await evictDurableObject(corridor());
    await inCorridor(env.DB, async (queue) => {
      await queue.drain();
      expect(queue.size()).toBe(0);
    });
    expect(await asked()).toBe(before + 1);
  });

  it("copies the writes queued within COALESCE_MS in one batch, their counters summed into one row", async () => {
    const before = await asked();
    const batches: number[] = [];
    const counting = watchingBatches(env.DB, (statements) => batches.push(statements.length));
    const writes = [quoteWrite(), quoteWrite(), quoteWrite()];
    await inCorridor(counting, async (queue) => {
      queue.add(writes[0]?.write as AuctionWrite);
      const soon = queue.drainSoon();
      for (const w of writes.slice(1)) queue.add(w.write);
      expect(queue.drainSoon()).toBe(soon);
      await soon;
      expect(queue.size()).toBe(0);
    });
    const each = auctionWrites.each(env.DB, writes[0]?.write as AuctionWrite).length;
    // One batch: each write's id and rows, then one counters row for the one resolver of all three.
    expect(batches).toEqual([3 * (each + 1) + 1]);
    expect(await asked()).toBe(before + 3);
    for (const w of writes) expect(await readQuoteRecord(env.DB, w.quoteId)).not.toBeNull();
  });

  it("serves a quote D1 does not have yet: the read has the corridor write it through", async () => {
    const { write, quoteId } = quoteWrite();
    await inCorridor(env.DB, async (queue) => queue.add(write));
    await evictDurableObject(corridor());

    const res = await app.request(`/v1/quotes/${quoteId}`, {}, env);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      quoteId,
      status: "quoted",
      offers: [{ name: "alpha" }, { name: "beta" }],
    });
    expect(await inCorridor(env.DB, async (queue) => queue.size())).toBe(0);
  });

  it("finds the quote for a cancel and a submission that come before its D1 copy", async () => {
    const { write, quoteId } = quoteWrite();
    await inCorridor(env.DB, async (queue) => queue.add(write));
    // A bad signature is refused after the quote is found (404 quote_not_found would mean it was not).
    const cancel = await app.request(
      `/v1/quotes/${quoteId}/cancel`,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ signature: `0x${"33".repeat(65)}` }),
      },
      env,
    );
    expect(cancel.status).toBe(400);
    expect(await cancel.json()).toMatchObject({ error: "bad_signature" });

    const other = quoteWrite();
    await inCorridor(env.DB, async (queue) => queue.add(other.write));
    const submit = await app.request(
      "/v1/executions",
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ quoteId: other.quoteId, signature: `0x${"44".repeat(65)}`, chainId: 1 }),
      },
      env,
    );
    expect(await submit.json()).toMatchObject({ error: "wrong_chain" });
  });

  it("is drained by the corridor's alarm", async () => {
    const { write, quoteId } = quoteWrite();
    await runInDurableObject(corridor(), async (_, state) => {
      new WriteBehind(state.storage.sql, env.DB, auctionWrites, "test").add(write);
      await state.storage.setAlarm(Date.now() + 60_000);
    });
    expect(await runDurableObjectAlarm(corridor())).toBe(true);
    expect(await readQuoteRecord(env.DB, quoteId)).not.toBeNull();
  });

  it("tags a quote id with its corridor", () => {
    const id = newId("q", corridorTag(corridorKey));
    expect(id).toMatch(/^q_[0-9a-f]{32}$/);
    expect(id.slice(2, 10)).toBe(corridorTag(corridorKey));
  });
});
