/**
 * A corridor-wide cap behind a per-client one (docs/security.md, "Limits"): what a corridor holds open
 * for all its clients (resolver sockets, event streams). Past three quarters of the cap, a client that
 * already holds one gets no more: the last quarter is kept for clients that hold none, so a few clients
 * within their own limits cannot take it all.
 */
export type ShareRefusal = "client" | "corridor";

/** The fraction of a corridor's cap any client may fill; the rest goes to clients holding none. */
const SHARED_PART = 3 / 4;

/**
 * Null when a client holding `held` of the `total` a corridor holds may take one more; else whose limit
 * it is over: its own (`perClient`) or the corridor's (`perCorridor`).
 */
export function overShare(held: number, total: number, perClient: number, perCorridor: number): ShareRefusal | null {
  if (held >= perClient) return "client";
  if (total >= perCorridor) return "corridor";
  if (held > 0 && total >= Math.floor(perCorridor * SHARED_PART)) return "corridor";
  return null;
}
