import { type Refusal, refuse } from "../errors";
import { NOT_LEADER_RETRY_SECONDS } from "../http";

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
  refuse(503, "not_leader", notLeaderMessages[reason], { reason, retryAfter: NOT_LEADER_RETRY_SECONDS });

export const quoteExpired = (): Refusal => refuse(409, "quote_expired", "The quote has expired; ask for a new one.");
