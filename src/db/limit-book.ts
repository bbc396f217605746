import type { RelayConfig } from "../config/schema";
import { findCorridor } from "../corridors";
import type { LimitBook, LimitCheck, OpenLimitOrder } from "../keeper/limit-job";
import { expireLimitOrders, recordLimitChecks, startLimitFill } from "./limit-orders";

/**
 * The keeper job's view of D1 `limit_orders` (migrations/0001_records.sql, 0006; docs/limit-orders.md), over
 * the statements of src/db/limit-orders.ts where they fit: every
 * method is one statement, or one batch for many orders, so a pass's round trips do not grow with the
 * number of orders. Moves are conditional on the status they leave, so a cancel and the job never both win.
 */

interface LimitRow extends Record<string, unknown> {
  limit_order_id: string;
  chain_id: number;
  taker: string;
  recipient: string;
  sell_token: string;
  buy_token: string;
  sell_amount: string;
  limit_amount: string;
  min_out: string;
  gas_fee_token: string;
  max_gas_fee: string;
  nonce: string;
  deadline: string;
  signature: string;
  expires_at: string;
  /** JSON {value, deadline, v, r, s} or null (migrations/0006_limit_orders.sql). */
  erc2612: string | null;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** An order's row as the job reads it; null when the configuration no longer serves its pair. */
function openOrder(config: RelayConfig, r: LimitRow): OpenLimitOrder | null {
  const corridor = findCorridor(config, r.chain_id, r.sell_token, r.buy_token);
  if (!corridor) return null;
  const order = {
    taker: r.taker,
    recipient: r.recipient,
    sellToken: r.sell_token,
    buyToken: r.buy_token,
    sellAmount: r.sell_amount,
    minOut: r.min_out,
    gasFeeToken: r.gas_fee_token,
    maxGasFee: r.max_gas_fee,
    deadline: r.deadline,
  };
  return {
    limitOrderId: r.limit_order_id,
    chainId: r.chain_id,
    corridorKey: corridor.key,
    taker: r.taker,
    recipient: r.recipient,
    sellToken: r.sell_token,
    buyToken: r.buy_token,
    sellAmount: r.sell_amount,
    limitAmount: r.limit_amount,
    round: { limitOrderId: r.limit_order_id, order, nonce: r.nonce, minOut: r.min_out },
    signature: r.signature,
    permit: r.erc2612 ? (JSON.parse(r.erc2612) as OpenLimitOrder["permit"]) : null,
    expiresAt: Date.parse(r.expires_at),
  };
}

export function d1LimitBook(db: D1Database, config: () => RelayConfig): LimitBook {
  return {
    async open(now, limit) {
      const { results } = await db
        .prepare(
          `SELECT * FROM limit_orders WHERE status = 'open' AND expires_at > ?
           ORDER BY last_checked_at IS NOT NULL, last_checked_at, created_at LIMIT ?`,
        )
        .bind(iso(now), limit)
        .all<LimitRow>();
      const cfg = config();
      return results.map((r) => openOrder(cfg, r)).filter((o): o is OpenLimitOrder => o !== null);
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
      await db.batch([
        db
          .prepare(
            `UPDATE limit_orders SET status = 'filled', updated_at = ?1
             WHERE status = 'filling' AND quote_id IN (SELECT quote_id FROM quotes WHERE status = 'settled')`,
          )
          .bind(at),
        db
          .prepare(
            `UPDATE limit_orders SET status = 'open', updated_at = ?1,
               last_error = 'fill_' || (SELECT q.status FROM quotes q WHERE q.quote_id = limit_orders.quote_id)
             WHERE status = 'filling' AND quote_id IN
               (SELECT quote_id FROM quotes WHERE status IN ('failed', 'expired', 'cancelled'))`,
          )
          .bind(at),
      ]);
    },

    sweepExpired: (now) => expireLimitOrders(db, iso(now)),
  };
}
