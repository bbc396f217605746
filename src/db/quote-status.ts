import type { QuoteStatus } from "../schemas";
import { QUOTE_MOVES } from "../states";
import { inMoveFrom, quoteMoveSql } from "./quote-moves";

/**
 * How many quotes one batch of the keeper's sweep expires at most: a short write each (about 2 ms in local
 * D1), so that a sweep after a burst of unsigned quotes never holds D1's one writer, or locally the thread
 * every object shares, for long (docs/settlement.md, "The keeper's alarm").
 */
export const EXPIRY_CHUNK = 200;

/**
 * Marks open quotes past their expiry as `expired`, each with an `expired` timeline event at its
 * `expiresAt`: one quote (`quoteId`), or the EXPIRY_CHUNK earliest due quotes (a batch of the keeper's
 * sweep); the move is the `expired` row of QUOTE_MOVES (src/states/quote-states.ts). The statements are
 * conditional and run in one batch, so concurrent readers and sweeps record an expiry once; in one batch,
 * both pick the same quotes.
 */
function expiryStatements(db: D1Database, now: string, quoteId: string | null): D1PreparedStatement[] {
  // Two shapes of one statement, so each finds its rows by an index: the key, or the open-expiry index.
  const which =
    quoteId === null
      ? `quote_id IN (SELECT quote_id FROM quotes WHERE ${inMoveFrom("expired")} AND expires_at <= ?1
           ORDER BY expires_at LIMIT ${EXPIRY_CHUNK}) AND ?2 IS NULL`
      : "quote_id = ?2";
  const events = QUOTE_MOVES.expired.events.map((event) =>
    db
      .prepare(
        `INSERT INTO timeline_events (quote_id, at, event, detail)
         SELECT quote_id, expires_at, ?3, NULL FROM quotes q
         WHERE ${which} AND ${inMoveFrom("expired")} AND expires_at <= ?1
           AND NOT EXISTS (SELECT 1 FROM timeline_events t WHERE t.quote_id = q.quote_id AND t.event = ?3)`,
      )
      .bind(now, quoteId, event),
  );
  return [
    ...events,
    db.prepare(quoteMoveSql("expired", "updated_at = ?1", `${which} AND expires_at <= ?1`)).bind(now, quoteId),
  ];
}

export async function expireIfDue(db: D1Database, quoteId: string, now: string): Promise<void> {
  await db.batch(expiryStatements(db, now, quoteId));
}

/** Expires every open quote past its `expiresAt`, EXPIRY_CHUNK at a time; returns how many. */
export async function expireAllDue(db: D1Database, now: string): Promise<number> {
  let expired = 0;
  for (;;) {
    // The status update is the batch's last statement, after the timeline's.
    const results = await db.batch(expiryStatements(db, now, null));
    const changes = results.at(-1)?.meta.changes ?? 0;
    expired += changes;
    if (changes < EXPIRY_CHUNK) return expired;
  }
}

/**
 * Cancels an open, unexpired quote that the keeper has not claimed for a fill (the `cancelled` row of
 * QUOTE_MOVES); false otherwise (the caller reads why). Conditional in D1, so against a concurrent claim exactly one of the two wins.
 */
export async function cancelQuote(db: D1Database, quoteId: string, now: string): Promise<boolean> {
  const r = await db
    .prepare(quoteMoveSql("cancelled", "updated_at = ?2", "quote_id = ?1 AND expires_at > ?2 AND claimed_at IS NULL"))
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
