import { retryLater } from "../errors";
import { NOT_LEADER_RETRY_SECONDS } from "../keeper/contract";

/**
 * Calls a Durable Object for a route (docs/api.md, "Errors"): an object the runtime says cannot be
 * reached right now (restarting, moved, overloaded: its error is `retryable` or `overloaded`) is 503
 * `not_leader` with `Retry-After`, naming `reason`, never a 500. Any other error is rethrown.
 */
export async function callObject<T>(
  call: () => Promise<T>,
  unreachable: { message: string; reason: string },
): Promise<T> {
  try {
    return await call();
  } catch (e) {
    const { retryable, overloaded } = (e ?? {}) as { retryable?: boolean; overloaded?: boolean };
    if (retryable || overloaded) {
      throw retryLater(503, "not_leader", unreachable.message, NOT_LEADER_RETRY_SECONDS, {
        reason: unreachable.reason,
      });
    }
    throw e;
  }
}
