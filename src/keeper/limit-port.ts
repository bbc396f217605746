import type { LimitOrderChains, TakerSide } from "../chains";
import { adapterFor, findCorridor, limitOrdersFor } from "../chains";
import type { RelayConfig } from "../config";
import {
  dueLimitOrders,
  expireLimitOrders,
  failLimitFill,
  followLimitFills,
  recordLimitChecks,
  revokeLimitOrders,
  startLimitFill,
} from "../db";
import { bandAssetOf } from "../oracle";
import type { OpenLimitOrder } from "../schemas";
import { type LimitBook, type LimitJobPort, RECIPIENT_REFUSED } from "./limit-job";

/** What the limit job's port is made of in the keeper object: D1, the configuration, and the other objects. */
export interface LimitPortDeps {
  db: D1Database;
  config(): RelayConfig;
  band: LimitJobPort["band"];
  auction: LimitJobPort["auction"];
  submit: LimitJobPort["submit"];
  paused: LimitJobPort["paused"];
  moved: LimitJobPort["moved"];
  /** How the job reads each chain's limit orders (the RPC by default; a fake in tests). */
  chains?: LimitOrderChains;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The order on the corridor the configuration serves its pair on now; null when it no longer does. */
function served(config: RelayConfig, order: OpenLimitOrder): OpenLimitOrder | null {
  const corridor = findCorridor(config, order.chainId, order.sellToken, order.buyToken);
  return corridor ? { ...order, corridor: corridor.key } : null;
}

/**
 * The job's book over D1 (src/db/limit-book.ts for its reads, src/db/limit-moves.ts for its moves, the
 * routes' own): every method is one statement, or one batch for many orders.
 */
function d1LimitBook(db: D1Database, config: () => RelayConfig): LimitBook {
  return {
    async open(now, limit) {
      // Every open order is due to the job: checked at or before now, least recently first.
      const due = await dueLimitOrders(db, { now: iso(now), checkedBefore: iso(now), limit });
      const cfg = config();
      return due.map((o) => served(cfg, o)).filter((o): o is OpenLimitOrder => o !== null);
    },
    async recordChecks(checks) {
      await recordLimitChecks(db, checks);
    },
    startFilling: (limitOrderId, quoteId, now) => startLimitFill(db, { limitOrderId, quoteId, now: iso(now) }),
    async fillFailed(limitOrderId, quoteId, reason, now) {
      await failLimitFill(db, { limitOrderId, quoteId, reason, now: iso(now) });
    },
    followFilling: (now) => followLimitFills(db, iso(now)),
    sweepExpired: (now) => expireLimitOrders(db, iso(now)),
    revoke: (ids, reason, now) => revokeLimitOrders(db, ids, reason, iso(now)),
  };
}

/** The limit job's port over D1 and the objects (docs/limit-orders.md, "The keeper's job"). */
export function limitJobPort(deps: LimitPortDeps): LimitJobPort {
  return {
    book: d1LimitBook(deps.db, deps.config),
    band: deps.band,
    auction: deps.auction,
    submit: deps.submit,
    paused: deps.paused,
    moved: deps.moved,
    now: () => Date.now(),
    async takerSides(orders) {
      const config = deps.config();
      const chains = deps.chains ?? limitOrdersFor;
      const sides: TakerSide[] = orders.map(() => ({ kind: "whole" }));
      // One batch per chain, the chains at once.
      const byChain = new Map<number, number[]>();
      for (const [i, o] of orders.entries()) byChain.set(o.chainId, [...(byChain.get(o.chainId) ?? []), i]);
      await Promise.all(
        [...byChain].map(async ([chainId, indices]) => {
          const chain = config.chains.find((c) => c.chainId === chainId);
          const limits = chain ? chains(chain) : null;
          if (!limits) return;
          const queries = indices.map((i) => {
            const o = orders[i] as OpenLimitOrder;
            const amount = BigInt(o.permitAmount);
            return {
              taker: o.taker,
              token: o.permitToken,
              amount,
              nonce: BigInt(o.nonce),
              erc2612: o.erc2612,
              // An order resting for its recipient asks whether the recipient takes the buy token now.
              recipient: o.lastError === RECIPIENT_REFUSED ? { buyToken: o.buyToken, address: o.recipient } : null,
            };
          });
          // A chain that does not answer now: its orders' rounds find out as before.
          const read = await limits.takerSides(queries, Math.floor(Date.now() / 1000)).catch(() => null);
          read?.forEach((side, k) => {
            const i = indices[k];
            if (i !== undefined) sides[i] = side;
          });
        }),
      );
      return sides;
    },
    ask(order) {
      const config = deps.config();
      const chain = config.chains.find((c) => c.chainId === order.chainId);
      const adapter = chain ? adapterFor(chain) : null;
      const asset = (token: string) =>
        adapter ? bandAssetOf(config, order.corridor, token, adapter.sameAddress) : null;
      const decimals = (token: string) => adapter?.token(token)?.decimals ?? 0;
      return {
        sellAmount: BigInt(order.sellAmount),
        limitAmount: BigInt(order.limitAmount),
        sellAsset: asset(order.sellToken),
        buyAsset: asset(order.buyToken),
        sellDecimals: decimals(order.sellToken),
        buyDecimals: decimals(order.buyToken),
      };
    },
  };
}
