import { env, evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { type AuctionWrite, auctionWrites } from "../../src/auction/store";
import { allCorridors, corridorTag } from "../../src/chains/corridor-keys";
import { loadConfig } from "../../src/config/load";
import { readQuoteRecord } from "../../src/db/quotes";
import type { DayCounts } from "../../src/db/resolver-days";
import { WriteBehind } from "../../src/db/write-behind";
import { newId } from "../../src/ids";
import { sampleOffers, sampleQuote, sampleTimeline } from "../support/records";

/**
 * A corridor's write-behind when its records are in a database of their own (docs/architecture.md,
 * "Write-behind"): the records reach that database and the resolvers' counters `DB`, each once, whichever
 * half D1 fails.
 */

const key = allCorridors(loadConfig(env.RELAY_CONFIG)).find((c) => c.chain.kind === "evm")?.key ?? "";
const corridor = () => env.CORRIDOR.get(env.CORRIDOR.idFromName(key));
const records2 = env.RECORDS_2 as D1Database;

function quoteWrite(resolver: string): { write: AuctionWrite; quoteId: string } {
  const quote = sampleQuote({ quoteId: newId("q", corridorTag(key)) });
  const offers = sampleOffers(quote).map((o) => ({ ...o, signature: `0x${"22".repeat(65)}` }));
  const counters = { byAddress: [[resolver, { asked: 1, answered: 1, won: 1 }]] as [string, DayCounts][] };
  const timeline = sampleTimeline(quote);
  return {
    quoteId: quote.quoteId,
    write: { kind: "quote", quote, offers, timeline, counters: { ...counters, at: quote.quotedAt } },
  };
}

const asked = async (db: D1Database, resolver: string) =>
  (
    await db
      .prepare("SELECT SUM(asked) AS n FROM resolver_days WHERE address = ?")
      .bind(resolver)
      .first<{ n: number | null }>()
  )?.n ?? 0;

/** `DB`, whose batches fail before or after they run, as once the write-behind's first half is done. */
function failingMain(mode: "before" | "after"): D1Database {
  return new Proxy(env.DB, {
    get(target, prop) {
      if (prop === "batch")
        return async (statements: D1PreparedStatement[]) => {
          if (mode === "after") await target.batch(statements);
          throw new Error(`D1 batch failed ${mode} running`);
        };
      const value = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

const inCorridor = <T>(global: D1Database, f: (queue: WriteBehind<AuctionWrite>) => Promise<T>) =>
  runInDurableObject(corridor(), (_, state) =>
    f(new WriteBehind(state.storage.sql, { records: records2, global }, auctionWrites, "test")),
  );

describe("write-behind split over a corridor's database and DB", () => {
  for (const mode of ["before", "after"] as const) {
    it(`writes the records and the counters once each when DB fails ${mode} running the counters`, async () => {
      const resolver = `0x${crypto.randomUUID().replace(/-/g, "").padEnd(40, "0")}`;
      const { write, quoteId } = quoteWrite(resolver);
      await inCorridor(failingMain(mode), async (queue) => {
        queue.add(write);
        if (mode === "before") {
          await expect(queue.drain()).rejects.toThrow(/failed before/);
          // The records are written; their counters wait, still queued.
          expect(queue.size()).toBe(1);
        } else {
          // The counters' id is in DB: the batch landed, and is not written again.
          await queue.drain();
          expect(queue.size()).toBe(0);
        }
      });
      expect(await readQuoteRecord(records2, quoteId)).not.toBeNull();
      expect(await asked(env.DB, resolver)).toBe(mode === "after" ? 1 : 0);

      await evictDurableObject(corridor());
      await inCorridor(env.DB, async (queue) => {
        await queue.drain();
        expect(queue.size()).toBe(0);
      });
      expect(await asked(env.DB, resolver)).toBe(1);
      expect(await asked(records2, resolver)).toBe(0);
      expect(await readQuoteRecord(env.DB, quoteId)).toBeNull();
    });
  }
});
