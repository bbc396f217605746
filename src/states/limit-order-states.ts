import type { LimitOrderStatus } from "../schemas";
import { blamed } from "./blame";

/**
 * The limit order's state machine (docs/limit-orders.md, "States"): which status may follow which.
 *
 * `open → filling` when the keeper broadcasts a fill, `filling → filled` when it settles, `filling → open`
 * when it fails (the order is auctioned again), `filling → cancelled` when the chain refuses the taker's
 * signature (no round can mend that), `open → expired` at `expiresAt`, `open → cancelled` on the taker's
 * cancel. A cancel and a fill of the same order are serialised by their D1 conditions: both need `open`,
 * so exactly one wins.
 */
export const LIMIT_TRANSITIONS: Record<LimitOrderStatus, readonly LimitOrderStatus[]> = {
  open: ["filling", "expired", "cancelled"],
  filling: ["filled", "open", "cancelled"],
  filled: [],
  cancelled: [],
  expired: [],
};

/** Statuses where an order still holds the taker's funds to its terms: counted against `maxOpenPerTaker`. */
export const ACTIVE_LIMIT_STATUSES: readonly LimitOrderStatus[] = ["open", "filling"];

/** Statuses an order never leaves. */
export const isTerminal = (status: LimitOrderStatus) => LIMIT_TRANSITIONS[status].length === 0;

export interface LimitMove {
  from: LimitOrderStatus;
  to: LimitOrderStatus;
}

/** Every move the D1 statements make (src/db/limit-moves.ts); each is conditional on `from`. */
export const LIMIT_MOVES = {
  /** The keeper broadcast a fill of the order (with the filling quote's id). */
  fill: { from: "open", to: "filling" },
  /** The fill settled. */
  filled: { from: "filling", to: "filled" },
  /** The fill failed: the order is auctioned again. */
  reopen: { from: "filling", to: "open" },
  /** Its expiry passed while open. */
  expire: { from: "open", to: "expired" },
  /** The taker cancelled it. */
  cancel: { from: "open", to: "cancelled" },
  /** The taker spent or invalidated its Permit2 nonce on chain: it can never fill (`taker:nonce_revoked`). */
  revoked: { from: "open", to: "cancelled" },
  /** The chain refused the taker's signature in a fill of it: it can never fill (`taker:bad_signature`). */
  refused: { from: "filling", to: "cancelled" },
} as const satisfies Record<string, LimitMove>;

/** The `lastError` of an order whose taker signature the chain refuses (docs/limit-orders.md, "States"). */
export const TAKER_BAD_SIGNATURE = blamed("taker", "bad_signature");

/**
 * The move of a filling order whose fill did not happen, by why: `refused`, ending it, when the chain
 * refuses the taker's own signature (the taker delegated its account to code that refuses it, say), which
 * no later round can mend; otherwise `reopen`, auctioned again. An order reopened for a refused signature
 * would be auctioned every pass until it expires, each round asking the resolvers for nothing.
 */
export const afterFailedFill = (reason: string): "refused" | "reopen" =>
  reason === TAKER_BAD_SIGNATURE ? "refused" : "reopen";
