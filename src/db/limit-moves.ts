import type { MovedLimitOrder, QuoteStatus } from "../schemas";
import { afterFailedFill, LIMIT_MOVES, statusSql } from "../states";

/**
 * Every status move of a limit order in D1 (docs/limit-orders.md, "States"), the routes' and the keeper's
 * alike: each is one conditional statement built from its row of `LIMIT_MOVES` (src/states/limit-order-states.ts),
 * so a move repeated after a restart, or raced by another, changes nothing the second time, and a cancel
 * and a fill of one order never both win. The event log (migrations/0008) records each move by trigger.
 */

type MoveName = keyof typeof LIMIT_MOVES;

/** `UPDATE … SET status = <to>, <set> WHERE status = <from> AND <where>` for move `name`. */
function moveSql(name: MoveName, set: string, where: string, returning = false): string {
  const { from, to } = LIMIT_MOVES[name];
  return (
    `UPDATE limit_orders SET status = '${to}', ${set} WHERE status = '${from}' AND ${where}` +
    (returning ? " RETURNING limit_order_id AS limitOrderId, corridor" : "")
  );
}

/** The quote statuses a filling order follows: its fill settled, or it never will. */
const SETTLED: readonly QuoteStatus[] = ["settled"];
const NEVER_SETTLES: readonly QuoteStatus[] = ["failed", "expired", "cancelled"];
const filledBy = (statuses: readonly QuoteStatus[]) =>
  `quote_id IN (SELECT quote_id FROM quotes WHERE status IN (${statusSql(statuses)}))`;

/** `open → cancelled`: the taker's cancel of an open, unexpired order; false otherwise (the caller reads why). */
export async function cancelLimitOrder(db: D1Database, limitOrderId: string, now: string): Promise<boolean> {
  const r = await db
    .prepare(moveSql("cancel", "updated_at = ?2", "limit_order_id = ?1 AND expires_at > ?2"))
    .bind(limitOrderId, now)
    .run();
  return r.meta.changes > 0;
}

/**
 * `open → cancelled` for orders whose Permit2 nonce the chain shows spent or invalidated, with `lastError`
 * `reason` (docs/limit-orders.md, "The keeper's job"): one batch; the orders it moved.
 */
export async function revokeLimitOrders(
  db: D1Database,
  limitOrderIds: readonly string[],
  reason: string,
  now: string,
): Promise<MovedLimitOrder[]> {
  if (limitOrderIds.length === 0) return [];
  const sql = moveSql("revoked", "last_error = ?2, updated_at = ?3", "limit_order_id = ?1", true);
  const results = await db.batch(limitOrderIds.map((id) => db.prepare(sql).bind(id, reason, now)));
  return results.flatMap((r) => r.results as MovedLimitOrder[]);
}

/**
 * `open → expired` for open orders past their `expiresAt`, at their `expiresAt` (as a read sees them
 * before this runs, src/db/limit-order-rows.ts): one order (`limitOrderId`), or every due order (the
 * keeper's sweep), in one statement. Returns the orders it expired.
 */
export async function expireLimitOrders(
  db: D1Database,
  now: string,
  limitOrderId: string | null = null,
): Promise<MovedLimitOrder[]> {
  // Two shapes of one statement, so each finds its rows by an index: the key, or the status index.
  const which = limitOrderId === null ? "?2 IS NULL" : "limit_order_id = ?2";
  const { results } = await db
    .prepare(moveSql("expire", "updated_at = expires_at", `${which} AND expires_at <= ?1`, true))
    .bind(now, limitOrderId)
    .all<MovedLimitOrder>();
  return results;
}

/**
 * `open → filling`: the keeper is about to broadcast a fill of the order in quote `quoteId`. False when
 * the order is no longer open (cancelled, expired, or already filling): then nothing may be broadcast.
 */
export async function startLimitFill(
  db: D1Database,
  m: { limitOrderId: string; quoteId: string; now: string },
): Promise<boolean> {
  const r = await db
    .prepare(moveSql("fill", "quote_id = ?2, updated_at = ?3", "limit_order_id = ?1 AND expires_at > ?3"))
    .bind(m.limitOrderId, m.quoteId, m.now)
    .run();
  return r.meta.changes > 0;
}

/**
 * A fill in quote `quoteId` that the keeper's own submission refused, so nothing was sent: `filling → open`,
 * auctioned again, or `filling → cancelled` when the reason ends the order (`afterFailedFill`); `quoteId`
 * cleared and `lastError` the reason either way. False when the order is not filling that quote.
 */
export async function failLimitFill(
  db: D1Database,
  m: { limitOrderId: string; quoteId: string; reason: string; now: string },
): Promise<boolean> {
  const move = afterFailedFill(m.reason);
  const r = await db
    .prepare(
      moveSql(move, "quote_id = NULL, last_error = ?3, updated_at = ?4", "limit_order_id = ?1 AND quote_id = ?2"),
    )
    .bind(m.limitOrderId, m.quoteId, m.reason, m.now)
    .run();
  return r.meta.changes > 0;
}

/**
 * Follows every `filling` order to its fill's quote, in one batch: `filling → filled` once the quote
 * settled; `filling → open` once it failed, expired or was cancelled, with `lastError` `fill_<status>`
 * and `quoteId` cleared (as `reopenLimitOrder`). Returns the orders that moved.
 */
export async function followLimitFills(db: D1Database, now: string): Promise<MovedLimitOrder[]> {
  const moves = await db.batch<MovedLimitOrder>([
    db.prepare(moveSql("filled", "updated_at = ?1", filledBy(SETTLED), true)).bind(now),
    db
      .prepare(
        moveSql(
          "reopen",
          // SET reads the row as it was: the reason is the status of the quote being cleared.
          "quote_id = NULL, updated_at = ?1, " +
            "last_error = 'fill_' || (SELECT q.status FROM quotes q WHERE q.quote_id = limit_orders.quote_id)",
          filledBy(NEVER_SETTLES),
          true,
        ),
      )
      .bind(now),
  ]);
  return moves.flatMap((m) => m.results);
}

/**
 * The statements that move a limit order with its fill's quote, in the indexer's own batch, so the order
 * reads `filled` the moment its quote settles (and `open` again, `quoteId` cleared, the moment it fails)
 * rather than at the next pass: `filling → filled`; or, with the failure's `reason`, `filling → open`
 * (`lastError` `fill_failed`) or `filling → cancelled` when the reason ends the order (`afterFailedFill`,
 * `lastError` the reason). A quote of no limit order matches nothing; `followLimitFills` catches up
 * whatever these missed.
 */
export function limitFillSettled(db: D1Database, quoteId: string, now: string): D1PreparedStatement {
  return db.prepare(moveSql("filled", "updated_at = ?2", "quote_id = ?1")).bind(quoteId, now);
}

export function limitFillFailed(db: D1Database, quoteId: string, reason: string, now: string): D1PreparedStatement {
  const move = afterFailedFill(reason);
  // A reopened order says its fill failed (`fill_failed`, as `followLimitFills` does); an ended one says why.
  const lastError = move === "refused" ? reason : "fill_failed";
  return db
    .prepare(moveSql(move, "quote_id = NULL, last_error = ?2, updated_at = ?3", "quote_id = ?1"))
    .bind(quoteId, lastError, now);
}
