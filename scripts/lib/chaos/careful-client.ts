/**
 * The taker library's calls made as a careful client makes them (retry.ts): each attempt bounded in time,
 * repeated while the relay may not have answered for itself, every attempt kept for the audit. A
 * submission is repeated with the same Idempotency-Key, so a repeat is answered with the first execution.
 */
import type { EvmExecutionRequest, SolanaExecutionRequest } from "../../../src/clients/taker/api";
import { type Submission, submitExecution } from "../../../src/clients/taker/relay";
import { type Attempt, attemptOf, retryDelay } from "./retry";

/** Far above any answer the relay gives when up (a submission takes well under a second locally). */
const ATTEMPT_TIMEOUT_MS = 15_000;

export interface CarefulOptions {
  /** No attempt starts after it (ms since the epoch). */
  deadline: number;
  random?: () => number;
  /** Awaited before each attempt is sent (a pace to keep, a crash to arm). */
  before?: () => void | Promise<void>;
}

export interface Careful<T> {
  /** The 2xx answer, or null when none came before the deadline or a 4xx was final. */
  value: T | null;
  attempts: Attempt[];
}

/** Calls `call` until it answers 2xx, its failure is final, or the deadline passes. */
export async function carefully<T>(
  call: (signal: AbortSignal) => Promise<{ status: number; value: T }>,
  options: CarefulOptions,
): Promise<Careful<T>> {
  const attempts: Attempt[] = [];
  const random = options.random ?? Math.random;
  for (;;) {
    await options.before?.();
    try {
      const { status, value } = await call(AbortSignal.timeout(ATTEMPT_TIMEOUT_MS));
      attempts.push({ kind: "answered", status });
      return { value, attempts };
    } catch (e) {
      const attempt = attemptOf(e);
      attempts.push(attempt);
      const delay = retryDelay(attempt, attempts.length, Date.now(), options.deadline, random);
      if (delay === null) return { value: null, attempts };
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}

/**
 * `POST /v1/executions` with `idempotencyKey` on every attempt. `not_leader` is retried here like any 5xx
 * (after its `Retry-After`), not inside the library, so every attempt is counted.
 */
export function submitCarefully(
  relayUrl: string,
  request: EvmExecutionRequest | SolanaExecutionRequest,
  idempotencyKey: string,
  options: CarefulOptions,
): Promise<Careful<Submission>> {
  return carefully(async (signal) => {
    const submission = await submitExecution(relayUrl, request, { idempotencyKey, notLeaderRetries: 0, signal });
    return { status: submission.httpStatus, value: submission };
  }, options);
}
