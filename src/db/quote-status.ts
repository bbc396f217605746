import { OPEN_SQL } from "../quotes/states";
import type { QuoteStatus } from "../schemas/quote";

/**
 * Marks an open quote past its expiry as `expired` with an `expired` timeline event. Both conditional,
 * in one batch, so concurrent readers record the expiry once.
 */
export async function expireIfDue(db: D1Database, quoteId: string, now: string): Promise<void> {
  await db.batch([
    db
      .prepare(
        `UPDATE quotes SET status = 'expired', updated_at = ?2
         WHERE quote_id = ?1 AND status IN (${OPEN_SQL}) AND expires_at <= ?2`,
      )
      .bind(quoteId, now),
    db
      .prepare(
        `INSERT INTO timeline_events (quote_id, at, event, detail)
         SELECT quote_id, expires_at, 'expired', NULL FROM quotes
         WHERE quote_id = ?1 AND status = 'expired'
           AND NOT EXISTS (SELECT 1 FROM timeline_events WHERE quote_id = ?1 AND event = 'expired')`,
      )
      .bind(quoteId),
  ]);
}

/** Cancels an open, unexpired quote; false when it was not open (the caller reads why). */
export async function cancelQuote(db: D1Database, quoteId: string, now: string): Promise<boolean> {
  const r = await db
    .prepare(
      `UPDATE quotes SET status = 'cancelled', updated_at = ?2
       WHERE quote_id = ?1 AND status IN (${OPEN_SQL}) AND expires_at > ?2`,
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
