import type { Refusal } from "../errors";
import type { SubmitOutcome } from "../keeper";
import type { ExecutionAnswer } from "../schemas";

/** The HTTP answer of an outcome that is not an error: 202 for a broadcast, 200 for the rest. */
export function acceptedAnswer(outcome: Exclude<SubmitOutcome, Refusal>): {
  status: 200 | 202;
  body: ExecutionAnswer;
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
