import { type Refusal, refuse } from "../errors";
import { type Quote, type Replies, TAKER_SIGNING_FIELDS } from "../schemas";
import type { Decision } from "./decide";

/**
 * A JSON object as Durable Object RPC typing can state it (it cannot state `unknown`, nor a recursive
 * JSON type): nested values are plain `object`s.
 */
export type JsonObject = Record<string, string | number | boolean | null | object>;

/** The quote record with its free-form parts (timeline details) as JSON. */
export type QuotedRecord = Omit<Quote, "timeline"> & {
  timeline: (Omit<Quote["timeline"][number], "detail"> & { detail: JsonObject | null })[];
};

/**
 * How long a quote's phases took (ms, `performance.now()`), for a `Server-Timing` header: the auction
 * from sending the rfqs to its close, ranking and deciding the winner (its signature check, and on
 * chains where the winner signs, its `sign` round trip), and storing the quote.
 */
export interface QuoteTimings {
  auctionMs: number;
  rankingMs: number;
  storageMs: number;
}

/**
 * A quote request's outcome: plain JSON data, so that it crosses the Durable Object boundary as it is
 * and the route reads it with the type it has here. `signing` is what the taker signs (the chain adapter's).
 */
export type QuoteOutcome =
  | { kind: "quoted"; quote: QuotedRecord; signing: JsonObject; timings: QuoteTimings }
  | Refusal;

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

/**
 * What the corridor answers the Worker for a taker's quote request: the HTTP body already serialized (the
 * quote record and what the taker signs), so that nothing is cloned across the hop or serialized twice,
 * its timings, and the auction's fields for the request's one log line (docs/operations.md, "Logs").
 */
export type QuoteAnswer = ({ kind: "quoted"; body: string; timings: QuoteTimings } | Refusal) & { log: JsonObject };

/** A quote request's outcome as the Worker answers it; `log` is its fields for the request's log line. */
export function quoteAnswer(outcome: QuoteOutcome, log: JsonObject): QuoteAnswer {
  if (outcome.kind === "refused") return { ...outcome, log };
  return {
    kind: "quoted",
    body: JSON.stringify({ ...outcome.quote, ...forTaker(outcome.signing) }),
    timings: outcome.timings,
    log,
  };
}

/** What of a quote's signing the taker gets: `TakerSigning`'s fields, not what is kept for settlement. */
function forTaker(signing: JsonObject): JsonObject {
  const given = TAKER_SIGNING_FIELDS.flatMap((k) => (signing[k] === undefined ? [] : [[k, signing[k]] as const]));
  return Object.fromEntries(given);
}

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
