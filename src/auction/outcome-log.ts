import type { JsonObject, QuoteOutcome } from "./quote-outcome";

/** An auction's log fields (docs/operations.md, "Logs"): the quote and its winner, or the refusal. */
export function auctionLogFields(corridor: string, outcome: QuoteOutcome): JsonObject {
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
