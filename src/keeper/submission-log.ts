import type { LogFields } from "../log";
import type { SubmitOutcome } from "./rpc";

/**
 * What a submission adds to its request's one log line (docs/operations.md, "Logs"): what the keeper
 * answered, and its chain calls' times.
 */
export function submissionLogFields(quoteId: string, outcome: SubmitOutcome): LogFields {
  switch (outcome.kind) {
    case "refused":
      return { quoteId, refused: outcome.code, ...outcome.extras };
    case "duplicate":
      return { quoteId, outcome: "duplicate", executionId: outcome.executionId };
    case "requote":
      return { quoteId, outcome: "requote", executionId: outcome.executionId, reason: outcome.reason };
    case "submitted":
      return {
        quoteId,
        outcome: "submitted",
        executionId: outcome.executionId,
        txHash: outcome.txHash,
        simulateMs: outcome.timings?.simulateMs ?? null,
        broadcastMs: outcome.timings?.broadcastMs ?? null,
      };
  }
}
