import { type Refusal, RelayError, refuse } from "../errors";

/** `not_leader` answers ask the caller to come back after this many seconds (docs/settlement.md). */
export const NOT_LEADER_RETRY_SECONDS = 2;

export interface Unreachable {
  message: string;
  reason: string;
}

/**
 * What a call to a Durable Object that failed means for a request (docs/api.md, "Conventions"): an object the
 * runtime says cannot be reached right now (restarting, moved, overloaded: its error is `retryable` or
 * `overloaded`) is 503 `not_leader` with `Retry-After`, naming `reason`, never a 500; any other error is
 * not a refusal (null).
 */
export function unreachableRefusal(e: unknown, unreachable: Unreachable): Refusal | null {
  const { retryable, overloaded } = (e ?? {}) as { retryable?: boolean; overloaded?: boolean };
  if (!retryable && !overloaded) return null;
  return refuse(503, "not_leader", unreachable.message, {
    reason: unreachable.reason,
    retryAfter: NOT_LEADER_RETRY_SECONDS,
  });
}

/** Calls a Durable Object for a route: unreachable, the 503 above is thrown; any other error is rethrown. */
export async function callObject<T>(call: () => Promise<T>, unreachable: Unreachable): Promise<T> {
  try {
    return await call();
  } catch (e) {
    const refusal = unreachableRefusal(e, unreachable);
    throw refusal ? RelayError.from(refusal) : e;
  }
}
