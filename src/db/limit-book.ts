import type { LimitCheck, OpenLimitOrder } from "../schemas";
import { ACTIVE_LIMIT_STATUSES, LIMIT_MOVES, statusSql } from "../states";
import { type DbRow, fromDb, SELECT_STORED } from "./limit-order-rows";

/**
 * The book the keeper's limit job reads (docs/limit-orders.md, "The keeper's job"): the orders due for an
 * auction and the auctions' outcomes, each one statement for many orders, so a pass's round trips do not
 * grow with the number of orders. Its moves are src/db/limit-moves.ts, shared with the routes.
 */

const ACTIVE_SQL = statusSql(ACTIVE_LIMIT_STATUSES);
/** The status an auction's winner moves an order from. */
const AUCTIONED = LIMIT_MOVES.fill.from;

/**
 * Open, unexpired orders due for an auction: never checked, or last checked at or before
 * `checkedBefore`; least recently checked first, at most `limit` of them (one query).
 */
export async function dueLimitOrders(
  db: D1Database,
  q: { now: string; checkedBefore: string; limit: number },
): Promise<OpenLimitOrder[]> {
  const { results } = await db
    .prepare(
      `SELECT ${SELECT_STORED} FROM limit_orders
       WHERE status = '${AUCTIONED}' AND expires_at > ?1 AND (last_checked_at IS NULL OR last_checked_at <= ?2)
       ORDER BY last_checked_at, created_at
       LIMIT ?3`,
    )
    .bind(q.now, q.checkedBefore, q.limit)
    .all<DbRow>();
  return results.map(fromDb) as OpenLimitOrder[];
}

/**
 * Records checks of many orders in one statement: `attempts + 1` for each one auctioned, `lastCheckedAt`,
 * `bestReceived`, `lastError`, for each order that is still open or filling (one check per order).
 * Returns how many orders it updated.
 */
export async function recordLimitChecks(db: D1Database, checks: readonly LimitCheck[]): Promise<number> {
  if (checks.length === 0) return 0;
  const r = await db
    .prepare(
      `UPDATE limit_orders SET
         attempts = attempts + json_extract(c.value, '$.auctioned'),
         last_checked_at = json_extract(c.value, '$.lastCheckedAt'),
         best_received = json_extract(c.value, '$.bestReceived'),
         last_error = json_extract(c.value, '$.lastError'),
         updated_at = json_extract(c.value, '$.lastCheckedAt')
       FROM json_each(?1) AS c
       WHERE limit_orders.limit_order_id = json_extract(c.value, '$.limitOrderId')
         AND limit_orders.status IN (${ACTIVE_SQL})`,
    )
    .bind(JSON.stringify(checks))
    .run();
  return r.meta.changes;
}
