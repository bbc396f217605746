import type { LogFields } from "../log";
import type { QuoteOutcome } from "./quote-outcome";

/** An auction's log line (docs/operations.md, "Logs"): the quote and its winner, or the refusal. */
export function auctionLogFields(corridor: string, outcome: QuoteOutcome): LogFields {
  if (outcome.kind === "refused") return { corridor, refused: outcome.code, ...outcome.extras };
  const { quote, timings } = outcome;
  return {
    corridor,
    quoteId: quote.quoteId,
    resolver: quote.resolver?.address ?? null,
    received: quote.received,
    replies: quote.replies,
    auctionMs: timings.auctionMs,
  };
}
