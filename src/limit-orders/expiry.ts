/**
 * A limit order's expiry (docs/limit-orders.md, "Expiry"): prepare takes `expiresInSeconds` within the
 * configuration's `limitOrders.minExpirySeconds..maxExpirySeconds`; placing checks the signed deadline
 * again, with `PLACE_GRACE_SECONDS` off the shortest expiry for the time the taker took to sign.
 */

export interface ExpiryBounds {
  minExpirySeconds: number;
  maxExpirySeconds: number;
}

/** How much of the shortest expiry may have passed between prepare and placing. */
export const PLACE_GRACE_SECONDS = 120;

/** Whether prepare accepts `expiresInSeconds`. */
export const expiryAccepted = (expiresInSeconds: number, bounds: ExpiryBounds) =>
  expiresInSeconds >= bounds.minExpirySeconds && expiresInSeconds <= bounds.maxExpirySeconds;

/** Whether a draft whose signed deadline is `deadline` (unix seconds) may be placed at `now` (unix seconds). */
export function deadlineAccepted(deadline: bigint, now: number, bounds: ExpiryBounds): boolean {
  const left = deadline - BigInt(now);
  return (
    left > 0n &&
    left >= BigInt(bounds.minExpirySeconds - PLACE_GRACE_SECONDS) &&
    left <= BigInt(bounds.maxExpirySeconds)
  );
}

/** The signed deadline of an order prepared at `now` (unix seconds). */
export const deadlineOf = (now: number, expiresInSeconds: number) => BigInt(now + expiresInSeconds);

/** A unix-seconds deadline as the record's `expiresAt`. */
export const expiresAtOf = (deadline: bigint) => new Date(Number(deadline) * 1000).toISOString();
