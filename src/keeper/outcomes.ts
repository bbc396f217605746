import type { ExecutionRow } from "../db";
import { type Refusal, refuse } from "../errors";
import { NOT_LEADER_RETRY_SECONDS, type Unreachable } from "../objects";
import type { SubmitOutcome } from "./rpc";

/** Each code the keeper refuses a submission with, and its status: the one place both are written. */
const refusalStatus = {
  quote_not_found: 404,
  invalid_request: 400,
  bad_signature: 400,
  bad_transaction: 400,
  taker_not_ready: 400,
  wrong_chain: 409,
  quote_not_open: 409,
  quote_expired: 409,
  idempotency_key_reused: 409,
  rate_limited: 429,
  not_leader: 503,
} as const;

export type KeeperRefusalCode = keyof typeof refusalStatus;

/** A refusal of the keeper's, its status the code's. */
export const keeperRefusal = (code: KeeperRefusalCode, message: string, extras?: Refusal["extras"]): Refusal =>
  refuse(refusalStatus[code], code, message, extras);

/**
 * Why the keeper cannot take a submission now (docs/settlement.md, "not_leader"): its key is not set,
 * it is recovering a transaction whose broadcast it has not confirmed, the settlement contract does not
 * accept it, the chain's RPC does not answer, or an operator paused the keeper (docs/operations.md). Nothing was recorded; the same request may be sent again.
 */
export type NotLeaderReason =
  | "keeper_not_configured"
  | "recovering"
  | "keeper_not_allowed"
  | "keeper_insufficient_funds"
  | "rpc_unavailable"
  | "keeper_paused";

const notLeaderMessages: Record<NotLeaderReason, string> = {
  keeper_not_configured: "The keeper has no key configured; it cannot submit fills.",
  recovering: "The keeper is confirming an earlier broadcast before it sends another.",
  keeper_not_allowed: "The settlement contract does not accept this keeper.",
  keeper_insufficient_funds: "The keeper cannot pay the network fee; nothing was sent.",
  rpc_unavailable: "The chain's RPC endpoint is not answering.",
  keeper_paused: "The keeper is paused by the relay's operator; submit again later.",
};

export const notLeader = (reason: NotLeaderReason): Refusal =>
  keeperRefusal("not_leader", notLeaderMessages[reason], { reason, retryAfter: NOT_LEADER_RETRY_SECONDS });

/**
 * A keeper object that could not be reached (restarting, moved), or was reset while it held the submission,
 * which may then have gone out: the same Idempotency-Key answers the first execution (docs/settlement.md,
 * "not_leader"). The Worker says it of the leader, the leader of a chain's keeper.
 */
export const KEEPER_UNREACHABLE: Unreachable = {
  message: "The keeper is restarting; submit again shortly.",
  reason: "keeper_unreachable",
  reset: {
    message:
      "The keeper restarted while it held the submission, which may have gone out: submit again with the same Idempotency-Key for its answer.",
    reason: "keeper_restarted",
  },
};

/** No quote has the id, in D1 or in the corridor its id names. */
export const quoteNotFound = (quoteId: string): Refusal =>
  keeperRefusal("quote_not_found", `No quote has the id ${JSON.stringify(quoteId)}.`);

export const quoteExpired = (): Refusal => keeperRefusal("quote_expired", "The quote has expired; ask for a new one.");

/** A quote no longer open: claimed by a fill, settled, failed or cancelled (`status`). */
export const quoteNotOpen = (status: string): Refusal =>
  keeperRefusal("quote_not_open", `The quote is ${status}.`, { status });

/**
 * A quote on a chain the configuration no longer has: the Worker answers it before the rate limit, and
 * the keeper for the submissions that do not come through the Worker (the limit job).
 */
export const chainNotServed = (chainId: number): Refusal =>
  keeperRefusal("wrong_chain", `The relay no longer serves chain ${chainId}.`);

/** An Idempotency-Key belongs to one quote: the same key sent with another quote (docs/api.md, "Idempotency-Key"). */
export const keyReused = (quoteId: string): Refusal =>
  keeperRefusal("idempotency_key_reused", `This Idempotency-Key was used for quote ${quoteId}; use a new key.`, {
    quoteId,
  });

/**
 * Whether a submission's answer leaves its Idempotency-Key with its quote (docs/settlement.md,
 * "Idempotency-Key"): it made an execution (submitted, requote, a repeat's), or a keeper was unreachable or
 * reset while it held it, which may have sent it. Any other refusal recorded nothing, and the key is free.
 */
export function bindsKey(outcome: SubmitOutcome): boolean {
  if (outcome.kind !== "refused") return true;
  const { reason, reset } = KEEPER_UNREACHABLE;
  return outcome.code === "not_leader" && (outcome.extras.reason === reason || outcome.extras.reason === reset?.reason);
}

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
