import type { ExecutionRow, QuoteRow } from "../db";
import { type Refusal, refuse } from "../errors";
import type { Erc2612Permit, ExecutionAccepted, ExecutionStatus } from "../schemas";

/**
 * What the Worker and the keeper object say to each other (docs/settlement.md): plain data, so it
 * crosses the RPC boundary as it is. Routes import this, never the object's class.
 */

/** A submission as the Worker hands it over, validated. */
export interface SubmitRequest {
  quoteId: string;
  /** The taker's part, from the body field the quote's chain names (`SettlementScheme.submissionField`). */
  signature: string;
  permit: Erc2612Permit | null;
  idempotencyKey: string | null;
  /** The quote as the Worker has just read it from D1, so the keeper does not read it again; absent, it does. */
  quote?: QuoteRow;
  /** The HTTP request's id, for the keeper's log lines and its chain calls' (docs/operations.md, "Logs"). */
  requestId?: string;
}

/**
 * Where a submission's time went inside the keeper, in milliseconds (`performance.now()`), for a
 * Server-Timing header (docs/settlement.md, "The fast path"): D1, chain RPC before and inside the wallet,
 * the object's storage, and the wait for the wallet. A phase that did not run is 0.
 */
export interface SubmitTimings {
  /** D1: reading the quote (and a repeated Idempotency-Key) in admission. */
  readMs: number;
  /** The taker's signature (or transaction) checked: CPU, no RPC. */
  verifyMs: number;
  /** Chain RPC before the wallet: the taker's readiness, the simulation, the gas estimate, nonce and fees. */
  simulateMs: number;
  /** D1: claiming the quote right before signing. */
  claimMs: number;
  /** Waiting for the wallet's lock (another submission signing or broadcasting from it). */
  lockMs: number;
  /** Taking the nonce and signing (no RPC once the wallet is warm). */
  signMs: number;
  /** The object's storage: keeping the signed transaction before its broadcast. */
  storageMs: number;
  /** Chain RPC: the broadcast. */
  broadcastMs: number;
  /** D1: recording the submission (or the requote). */
  writeMs: number;
}

/** What the keeper answers a submission (docs/settlement.md, "Answers"). */
export type SubmitOutcome =
  | { kind: "submitted"; quoteId: string; executionId: string; txHash: string; timings?: SubmitTimings }
  | { kind: "requote"; quoteId: string; executionId: string; reason: string; timings?: SubmitTimings }
  | {
      kind: "duplicate";
      quoteId: string;
      executionId: string;
      status: ExecutionStatus;
      txHash: string | null;
      reason: string | null;
    }
  | Refusal;

/**
 * A quote on a chain the configuration no longer has: the Worker answers it before the rate limit, and
 * the keeper for the submissions that do not come through the Worker (the limit job).
 */
export const chainNotServed = (chainId: number): Refusal =>
  refuse(409, "wrong_chain", `The relay no longer serves chain ${chainId}.`);

/** An Idempotency-Key belongs to one quote: the same key sent with another quote (docs/api.md, "Idempotency-Key"). */
export const keyReused = (quoteId: string): Refusal =>
  refuse(409, "idempotency_key_reused", `This Idempotency-Key was used for quote ${quoteId}; use a new key.`, {
    quoteId,
  });

/** A repeated Idempotency-Key whose transaction the keeper holds and D1 has not heard of yet: submitted. */
export const storedDuplicate = (tx: {
  hash: string;
  submission: { quoteId: string; executionId: string };
}): Extract<SubmitOutcome, { kind: "duplicate" }> => ({
  kind: "duplicate",
  quoteId: tx.submission.quoteId,
  executionId: tx.submission.executionId,
  status: "submitted",
  txHash: tx.hash,
  reason: null,
});

/** A repeated Idempotency-Key: the first execution, as it stands. */
export const duplicateOf = (first: ExecutionRow): Extract<SubmitOutcome, { kind: "duplicate" }> => {
  const { executionId, quoteId, status, txHash, reason } = first;
  return { kind: "duplicate", quoteId, executionId, status, txHash, reason };
};

/** The keeper object as the Worker calls it. */
export interface KeeperContract {
  submit(request: SubmitRequest): Promise<SubmitOutcome>;
}

/** The HTTP answer of an outcome that is not an error: 202 for a broadcast, 200 for the rest. */
export function acceptedAnswer(outcome: Exclude<SubmitOutcome, Refusal>): {
  status: 200 | 202;
  body: ExecutionAccepted;
} {
  switch (outcome.kind) {
    case "submitted":
      return {
        status: 202,
        body: {
          quoteId: outcome.quoteId,
          executionId: outcome.executionId,
          status: "submitted",
          txHash: outcome.txHash,
        },
      };
    case "requote":
      return {
        status: 200,
        body: { quoteId: outcome.quoteId, executionId: outcome.executionId, status: "requote", reason: outcome.reason },
      };
    case "duplicate":
      return {
        status: 200,
        body: {
          quoteId: outcome.quoteId,
          executionId: outcome.executionId,
          status: outcome.status,
          txHash: outcome.txHash,
          reason: outcome.reason,
          duplicate: true,
        },
      };
  }
}
