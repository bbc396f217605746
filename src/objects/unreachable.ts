import { type Refusal, RelayError, refuse } from "../errors";

/** `not_leader` answers ask the caller to come back after this many seconds (docs/settlement.md). */
export const NOT_LEADER_RETRY_SECONDS = 2;

export interface Unreachable {
  message: string;
  reason: string;
  /**
   * What to say when the object was reset while it held the call, so what the call did is not known;
   * by default the same as when it could not be reached.
   */
  reset?: { message: string; reason: string };
}

/** A corridor object that cannot be reached or was reset: a quote, a price, a stream, a prepare, a read. */
export const CORRIDOR_UNREACHABLE: Unreachable = {
  message: "The corridor is restarting; ask again shortly.",
  reason: "corridor_unreachable",
};

/** The keeper leader, for what is not a submission (an admin's pause, resume or look). */
export const KEEPER_LEADER_UNREACHABLE: Unreachable = {
  message: "The keeper is restarting; ask again shortly.",
  reason: "keeper_unreachable",
};

export const ORACLE_UNREACHABLE: Unreachable = {
  message: "The oracle is restarting; ask again shortly.",
  reason: "oracle_unreachable",
};

/** Any other call to an object, answered by the app's error handler: never a 500 for a restart. */
export const OBJECT_UNREACHABLE: Unreachable = {
  message: "A part of the relay is restarting; ask again shortly.",
  reason: "object_unreachable",
};

/**
 * What a call to a Durable Object that failed means for a request (docs/api.md, "Conventions"): an object the
 * runtime says cannot be reached right now (restarting, moved, overloaded: its error is `retryable` or
 * `overloaded`), or that was reset while it held the call (a deploy's new code, an eviction: its error is
 * `durableObjectReset`), is 503 `not_leader` with `Retry-After`, naming `reason`, never a 500; any other
 * error is not a refusal (null).
 */
export function unreachableRefusal(e: unknown, unreachable: Unreachable): Refusal | null {
  const { retryable, overloaded, durableObjectReset } = (e ?? {}) as {
    retryable?: boolean;
    overloaded?: boolean;
    durableObjectReset?: boolean;
  };
  const said = durableObjectReset ? (unreachable.reset ?? unreachable) : retryable || overloaded ? unreachable : null;
  if (!said) return null;
  return refuse(503, "not_leader", said.message, { reason: said.reason, retryAfter: NOT_LEADER_RETRY_SECONDS });
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
