import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { EXPIRY_CHUNK, expireAllDue } from "../../src/db/quote-status";
import { insertQuoteStatements } from "../../src/db/quote-writes";
import { watchingBatches } from "../support/d1-batches";
import { sampleOffers, sampleQuote, sampleTimeline } from "../support/records";

/** The keeper's sweep of expired quotes, in batches of EXPIRY_CHUNK (docs/settlement.md, "The keeper's alarm"). */

const db = env.DB;
const iso = (ms: number) => new Date(ms).toISOString();

/** `count` open quotes expiring at `expiresAt` (ms), each from its own taker; their ids. */
async function openQuotes(count: number, expiresAt: number): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += 100) {
    const statements: D1PreparedStatement[] = [];
    for (let i = start; i < Math.min(count, start + 100); i++) {
      const taker = `0x${(0xe000 + i).toString(16).padStart(40, "0")}`;
      const quote = sampleQuote({
        taker,
        recipient: taker,
        quotedAt: iso(expiresAt - 30_000),
        expiresAt: iso(expiresAt),
      });
      ids.push(quote.quoteId);
      statements.push(...insertQuoteStatements(db, quote, sampleOffers(quote), sampleTimeline(quote)));
    }
    await db.batch(statements);
  }
  return ids;
}

/** `db` with every batch's last statement's changes recorded: each batch of the sweep, how many it expired. */
function recordingBatches(): { db: D1Database; expiredPerBatch: number[] } {
  const expiredPerBatch: number[] = [];
  const recording = watchingBatches(db, (_, results) => expiredPerBatch.push(results.at(-1)?.meta.changes ?? 0));
  return { db: recording, expiredPerBatch };
}

const statusOf = async (quoteId: string) =>
  (await db.prepare("SELECT status FROM quotes WHERE quote_id = ?").bind(quoteId).first<{ status: string }>())?.status;

describe("the sweep of expired quotes", () => {
  it("expires every due quote, EXPIRY_CHUNK at most in one batch, each with its timeline event", async () => {
    const now = Date.now();
    const due = await openQuotes(2 * EXPIRY_CHUNK + 50, now - 60_000);
    const [notYet = ""] = await openQuotes(1, now + 60_000);
    const { db: counted, expiredPerBatch } = recordingBatches();

    expect(await expireAllDue(counted, iso(now))).toBe(due.length);
    expect(expiredPerBatch).toEqual([EXPIRY_CHUNK, EXPIRY_CHUNK, 50]);
    expect(await statusOf(notYet)).toBe("quoted");
    const { n } = (await db
      .prepare(
        `SELECT COUNT(*) AS n FROM timeline_events t JOIN quotes q USING (quote_id)
         WHERE t.event = 'expired' AND q.status = 'expired' AND t.at = q.expires_at
           AND quote_id IN (SELECT value FROM json_each(?1))`,
      )
      .bind(JSON.stringify(due))
      .first<{ n: number }>()) ?? { n: 0 };
    expect(n).toBe(due.length);

    // Nothing left: the next sweep is one batch that expires nothing.
    const again = recordingBatches();
    expect(await expireAllDue(again.db, iso(now))).toBe(0);
    expect(again.expiredPerBatch).toEqual([0]);
  });

  it("finds a batch's quotes by the open-expiry index", async () => {
    const plan = await db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT quote_id FROM quotes WHERE status IN ('quoted','signed') AND expires_at <= ?1
         ORDER BY expires_at LIMIT ${EXPIRY_CHUNK}`,
      )
      .bind(iso(Date.now()))
      .all<{ detail: string }>();
    expect(plan.results.map((r) => r.detail).join("; ")).toMatch(/USING INDEX quotes_open_expiry/);
  });
});
