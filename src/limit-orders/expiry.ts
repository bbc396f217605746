/**
 * A limit order's expiry (docs/limit-orders.md, "Expiry"): prepare takes `expiresInSeconds` within the
 * configuration's `limitOrders.minExpirySeconds..maxExpirySeconds`; placing checks the signed deadline
 * again: what is left of it must still be at least the shortest expiry, less `CLOCK_SKEW_SECONDS`.
 */

export interface ExpiryBounds {
  minExpirySeconds: number;
  maxExpirySeconds: number;
}

/**
 * How far a deadline may fall short of the shortest expiry when placed: clock skew and the round trip,
 * not the time to sign (a taker who needs that asks prepare for more than the shortest expiry).
 */
export const CLOCK_SKEW_SECONDS = 30;

/** Whether prepare accepts `expiresInSeconds`. */
export const expiryAccepted = (expiresInSeconds: number, bounds: ExpiryBounds) =>
  expiresInSeconds >= bounds.minExpirySeconds && expiresInSeconds <= bounds.maxExpirySeconds;

/** Whether a draft whose signed deadline is `deadline` (unix seconds) may be placed at `now` (unix seconds). */
export function deadlineAccepted(deadline: bigint, now: number, bounds: ExpiryBounds): boolean {
  const left = deadline - BigInt(now);
  return (
    left > 0n && left >= BigInt(bounds.minExpirySeconds - CLOCK_SKEW_SECONDS) && left <= BigInt(bounds.maxExpirySeconds)
  );
}

/** The signed deadline of an order prepared at `now` (unix seconds). */
export const deadlineOf = (now: number, expiresInSeconds: number) => BigInt(now + expiresInSeconds);

/** A unix-seconds deadline as the record's `expiresAt`. */
export const expiresAtOf = (deadline: bigint) => new Date(Number(deadline) * 1000).toISOString();
