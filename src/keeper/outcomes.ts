import { type Refusal, refuse } from "../errors";
import type { ExecutionStatus } from "../schemas/quote";

/** `not_leader` answers ask the caller to come back after this many seconds (spec 4.2). */
export const NOT_LEADER_RETRY_SECONDS = 2;

/** What the keeper answers a submission (spec 4.2); plain data, so it crosses the RPC boundary as it is. */
export type SubmitOutcome =
  | { kind: "submitted"; quoteId: string; executionId: string; txHash: string }
  | { kind: "requote"; quoteId: string; executionId: string; reason: string }
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
 * Why the keeper cannot take a submission now (docs/settlement.md, "not_leader"): its key is not set,
 * it is recovering a transaction whose broadcast it has not confirmed, the executor does not accept it,
 * or the chain's RPC does not answer. Nothing was recorded; the same request may be sent again.
 */
export type NotLeaderReason = "keeper_not_configured" | "recovering" | "keeper_not_allowed" | "rpc_unavailable";

const notLeaderMessages: Record<NotLeaderReason, string> = {
  keeper_not_configured: "The keeper has no key configured; it cannot submit fills.",
  recovering: "The keeper is confirming an earlier broadcast before it sends another.",
  keeper_not_allowed: "The settlement contract does not accept this keeper.",
  rpc_unavailable: "The chain's RPC endpoint is not answering.",
};

export const notLeader = (reason: NotLeaderReason): Refusal =>
  refuse(503, "not_leader", notLeaderMessages[reason], { reason, retryAfter: NOT_LEADER_RETRY_SECONDS });

/** The HTTP answer of an outcome that is not an error: 202 for a broadcast, 200 for the rest. */
export function acceptedAnswer(outcome: Exclude<SubmitOutcome, Refusal>): { status: 200 | 202; body: object } {
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
