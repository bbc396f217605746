import { type Refusal, refuse } from "../errors";
import type { Replies } from "../schemas";
import type { Decision } from "./decide";

/** The replies of an auction that asked nobody. */
export const noReplies = (): Replies => ({ valid: 0, rejected: 0, declined: 0, noReply: 0, late: 0 });

/** No quote: nobody to ask, or no bid that could win (docs/api.md, "POST /v1/quotes"). */
export function noOffers(replies: Replies, nodesOnline: number, message: string): Refusal {
  return refuse(404, "no_offers", message, { replies, nodesOnline });
}

/** Why an auction that was asked and answered decided no winner. */
export function noWinner(decision: Decision, replies: Replies, nodesOnline: number): Refusal {
  if (decision.belowLimit !== undefined) {
    return refuse(404, "below_limit", "No bid gives the recipient the order's minimum.", {
      replies,
      bestReceived: decision.belowLimit.toString(),
    });
  }
  const why = decision.unbuildable
    ? "The chain's RPC is not answering, so no settlement can be built now."
    : "No resolver offered a price that could win.";
  return noOffers(replies, nodesOnline, why);
}
