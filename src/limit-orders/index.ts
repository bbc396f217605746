/**
 * Limit orders (docs/limit-orders.md): prepare, place, read, cancel, the record, and what the keeper's
 * pass needs (a round of an order, its window, its settings).
 * The folder's face: other folders import only what this file names (docs/architecture.md, "Folders").
 */

export { type LimitOrderContext, limitSettings } from "./context";
export { cancelSignedLimitOrder, limitOrderById, limitOrderPage } from "./orders";
export { placeLimitOrder } from "./place";
export { prepareLimitOrder } from "./prepare";
export { limitOrderRecord } from "./record";
export { limitRoundOf } from "./round";
export { type LimitAsk, withinWindow } from "./window";
