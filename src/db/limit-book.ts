import type { RelayConfig } from "../config/schema";
import { findCorridor } from "../corridors";
import type { LimitBook, LimitCheck, OpenLimitOrder } from "../keeper/limit-job";
import {
  dueLimitOrders,
  expireLimitOrders,
  type LimitOrderRow,
  type MovedLimitOrder,
  RETURNING_MOVED,
  recordLimitChecks,
  startLimitFill,
} from "./limit-orders";

/**
 * The keeper job's view of D1 `limit_orders` (migrations/0001_records.sql, 0006; docs/limit-orders.md), over
 * the statements of src/db/limit-orders.ts where they fit: every
 * method is one statement, or one batch for many orders, so a pass's round trips do not grow with the
 * number of orders. Moves are conditional on the status they leave, so a cancel and the job never both win.
 */

const iso = (ms: number) => new Date(ms).toISOString();

/** An order as the job reads it; null when the configuration no longer serves its pair. */
function openOrder(config: RelayConfig, r: LimitOrderRow): OpenLimitOrder | null {
  const corridor = findCorridor(config, r.chainId, r.sellToken, r.buyToken);
  if (!corridor) return null;
  const order = {
    taker: r.taker,
    recipient: r.recipient,
    sellToken: r.sellToken,
    buyToken: r.buyToken,
    sellAmount: r.sellAmount,
    minOut: r.minOut,
    gasFeeToken: r.gasFeeToken,
    maxGasFee: r.maxGasFee,
    deadline: r.deadline,
  };
  return {
    limitOrderId: r.limitOrderId,
    chainId: r.chainId,
    corridorKey: corridor.key,
    taker: r.taker,
    recipient: r.recipient,
    sellToken: r.sellToken,
    buyToken: r.buyToken,
    sellAmount: r.sellAmount,
    limitAmount: r.limitAmount,
    round: { limitOrderId: r.limitOrderId, order, nonce: r.nonce, minOut: r.minOut },
    signature: r.signature,
    permit: r.erc2612,
    expiresAt: Date.parse(r.expiresAt),
  };
}

export function d1LimitBook(db: D1Database, config: () => RelayConfig): LimitBook {
  return {
    async open(now, limit) {
      // Every open order is due to the job: checked at or before now, least recently first.
      const rows = await dueLimitOrders(db, { now: iso(now), checkedBefore: iso(now), limit });
      const cfg = config();
      return rows.map((r) => openOrder(cfg, r)).filter((o): o is OpenLimitOrder => o !== null);
    },

    async recordChecks(checks: readonly LimitCheck[]) {
      await recordLimitChecks(
        db,
        checks.map((c) => ({
          limitOrderId: c.limitOrderId,
          checkedAt: iso(c.at),
          bestReceived: c.bestReceived,
          lastError: c.error,
        })),
      );
    },

    startFilling: (limitOrderId, quoteId, now) => startLimitFill(db, { limitOrderId, quoteId, now: iso(now) }),

    async reopen(limitOrderId, error, now) {
      await db
        .prepare(
          `UPDATE limit_orders SET status = 'open', last_error = ?2, updated_at = ?3
           WHERE limit_order_id = ?1 AND status = 'filling'`,
        )
        .bind(limitOrderId, error, iso(now))
        .run();
    },

    async followFilling(now) {
      const at = iso(now);
      const moves = await db.batch<MovedLimitOrder>([
        db
          .prepare(
            `UPDATE limit_orders SET status = 'filled', updated_at = ?1
             WHERE status = 'filling' AND quote_id IN (SELECT quote_id FROM quotes WHERE status = 'settled')
             ${RETURNING_MOVED}`,
          )
          .bind(at),
        db
          .prepare(
            `UPDATE limit_orders SET status = 'open', updated_at = ?1,
               last_error = 'fill_' || (SELECT q.status FROM quotes q WHERE q.quote_id = limit_orders.quote_id)
             WHERE status = 'filling' AND quote_id IN
               (SELECT quote_id FROM quotes WHERE status IN ('failed', 'expired', 'cancelled'))
             ${RETURNING_MOVED}`,
          )
          .bind(at),
      ]);
      return moves.flatMap((m) => m.results);
    },

    sweepExpired: (now) => expireLimitOrders(db, iso(now)),
  };
}
