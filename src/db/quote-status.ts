import type { QuoteStatus } from "../schemas";
import { OPEN_SQL } from "../states";

/**
 * Marks open quotes past their expiry as `expired`, each with an `expired` timeline event at its
 * `expiresAt`: one quote (`quoteId`), or every due quote (the keeper's sweep). Both statements are
 * conditional and run in one batch, so concurrent readers and sweeps record an expiry once.
 */
function expiryStatements(db: D1Database, now: string, quoteId: string | null): D1PreparedStatement[] {
  // Two shapes of one statement, so each finds its rows by an index: the key, or the open-expiry index.
  const which = quoteId === null ? "?2 IS NULL" : "quote_id = ?2";
  return [
    db
      .prepare(
        `INSERT INTO timeline_events (quote_id, at, event, detail)
         SELECT quote_id, expires_at, 'expired', NULL FROM quotes q
         WHERE ${which} AND status IN (${OPEN_SQL}) AND expires_at <= ?1
           AND NOT EXISTS (SELECT 1 FROM timeline_events t WHERE t.quote_id = q.quote_id AND t.event = 'expired')`,
      )
      .bind(now, quoteId),
    db
      .prepare(
        `UPDATE quotes SET status = 'expired', updated_at = ?1
         WHERE ${which} AND status IN (${OPEN_SQL}) AND expires_at <= ?1`,
      )
      .bind(now, quoteId),
  ];
}

export async function expireIfDue(db: D1Database, quoteId: string, now: string): Promise<void> {
  await db.batch(expiryStatements(db, now, quoteId));
}

/** Expires every open quote past its `expiresAt`; returns how many. */
export async function expireAllDue(db: D1Database, now: string): Promise<number> {
  const [, updated] = await db.batch(expiryStatements(db, now, null));
  return updated?.meta.changes ?? 0;
}

/**
 * Cancels an open, unexpired quote that the keeper has not claimed for a fill; false otherwise (the
 * caller reads why). Conditional in D1, so against a concurrent claim exactly one of the two wins.
 */
export async function cancelQuote(db: D1Database, quoteId: string, now: string): Promise<boolean> {
  const r = await db
    .prepare(
      `UPDATE quotes SET status = 'cancelled', updated_at = ?2
       WHERE quote_id = ?1 AND status IN (${OPEN_SQL}) AND expires_at > ?2 AND claimed_at IS NULL`,
    )
    .bind(quoteId, now)
    .run();
  return r.meta.changes > 0;
}

export async function quoteStatus(
  db: D1Database,
  quoteId: string,
): Promise<{ status: QuoteStatus; chainId: number; taker: string; expiresAt: string } | null> {
  return db
    .prepare("SELECT status, chain_id AS chainId, taker, expires_at AS expiresAt FROM quotes WHERE quote_id = ?")
    .bind(quoteId)
    .first();
}
