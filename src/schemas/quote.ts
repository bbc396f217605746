import { z } from "@hono/zod-openapi";
import { bandFrameBody } from "../protocol";
import { PARTIES } from "../states";
import { Address, Amount, ChainIdQuery, pageQuery, Timestamp } from "./common";

export const QuoteStatus = z.enum(["quoted", "signed", "submitted", "settled", "failed", "expired", "cancelled"]);
export const ExecutionStatus = z.enum(["submitted", "settled", "failed", "requote"]);
export const TimelineEventName = z.enum([
  "requested",
  "quoted",
  "signed",
  "submitted",
  "requote",
  "fallback",
  "failed",
  "settled",
  "final",
  "expired",
]);

const TokenAmount = z.object({ token: Address, amount: Amount });

/** Whether a gas fee was priced from the chain and the oracle, or is the configured fallback (docs/api.md, "The gas fee"). */
export const GasFeeSource = z.enum(["priced", "fallback"]);

/** A quote's gas fee: what the taker is charged for the keeper's gas, in the charged token, and how it was set. */
export const QuoteGasFee = TokenAmount.extend({
  source: GasFeeSource.openapi({
    description:
      "`priced`: gas units × gas price × the native token's price, read from the chain and the oracle; `fallback`: the configured `gasFee.fixed`, used when an input is missing or older than 60 s",
  }),
});

/**
 * The band as resolvers receive it in `band` frames; the same shape is stored on each quote. Made here from
 * the frame's shape with the OpenAPI `z`: the frame is plain zod (the reference resolver shares it), and
 * zod 4 gives a schema `.openapi` only when @hono/zod-openapi has extended zod before it was made, which
 * depends on which module a program happens to load first.
 */
export const Band = z.object(bandFrameBody.shape).openapi("Band");

export const Replies = z.object({
  valid: z.number().int(),
  rejected: z.number().int(),
  declined: z.number().int(),
  noReply: z.number().int(),
  late: z.number().int(),
});

export const Offer = z.object({
  resolver: Address,
  name: z.string(),
  outputAmount: Amount,
  rank: z.number().int(),
  status: z.enum(["won", "lost", "outside_band", "demoted", "faded"]).openapi({
    description:
      '`faded`: it won, then its leg failed the keeper\'s checks for its own reason, and the next offer filled the quote (docs/settlement.md, "When the winner fades")',
  }),
  latencyMs: z.number(),
  won: z.boolean(),
  sellAmount: Amount.optional().openapi({
    description:
      "On a bid of a part of the swap, the part it sells: one leg of a fill of several makers (docs/legs.md); absent on a bid of the whole",
  }),
});

/** One maker's leg of a quote's fill (docs/legs.md). */
export const QuoteLeg = z.object({
  resolver: Address,
  sellAmount: Amount.openapi({ description: "the part of the swap's sell amount this leg sells" }),
  outputAmount: Amount.openapi({ description: "what this leg's resolver delivers of the buy token" }),
});

/** A quote's legs: each winning offer's, with the part it sells; one leg, the whole, when one bid fills it. */
export function legsOf(quote: { sellAmount: string; offers: readonly Offer[] }): QuoteLeg[] {
  return quote.offers
    .filter((o) => o.won)
    .map((o) => ({ resolver: o.resolver, sellAmount: o.sellAmount ?? quote.sellAmount, outputAmount: o.outputAmount }));
}

export const Steering = z
  .object({
    bandGuardBps: z.number().int(),
    minOutput: Amount.nullable(),
    maxOutput: Amount.nullable(),
    outsideBand: z.array(Address),
    demoted: z.array(Address),
  })
  .openapi({ description: "The steering that applied to the auction" });

/** Whose fault a failed fill was, by the chain's evidence (docs/reliability.md, "Blame"); the reason's prefix. */
export const Blame = z.enum(PARTIES).openapi("Blame");

const reasonFields = {
  reason: z.string().nullable().openapi({
    description:
      "why the fill failed or was requoted, prefixed with whose fault it was (`taker:`, `resolver:`, `relay:`)",
  }),
  blame: Blame.nullable().openapi({ description: "null while submitted or settled" }),
};

export const QuoteExecution = z.object({
  executionId: z.string(),
  status: ExecutionStatus,
  ...reasonFields,
  txHash: z.string().nullable(),
  submitter: z.string().nullable(),
  gasUsed: Amount.nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const Settlement = z.object({
  txHash: z.string(),
  block: z.number().int(),
  blockTime: Timestamp.nullable(),
  confirmed: z.boolean(),
  confirmedAt: Timestamp.nullable(),
  takerPays: Amount,
  proceeds: Amount,
  gasFee: TokenAmount,
  submitter: z.string(),
});

export const Fill = z.object({
  orderHash: z.string(),
  resolver: Address,
  filler: Address,
  logIndex: z.number().int(),
});

/** The winner of a quote: its identity, and on Solana the key that signed for it (docs/api.md, "Quote"). */
export const QuoteResolver = z.object({
  address: Address.openapi({ description: "The resolver's identity: the EVM address it authenticates with" }),
  name: z.string(),
  solanaAddress: z.string().nullable().openapi({
    description:
      "On a Solana quote, the base58 Solana key the resolver proved at auth, which signed its bid and the swap transaction; null on EVM quotes",
  }),
});

export const TimelineEntry = z.object({
  at: Timestamp,
  event: TimelineEventName,
  detail: z.record(z.string(), z.unknown()).nullable(),
});

/** On a record D1 no longer holds, read from the archive (docs/api.md, "Archived records"). */
const Archived = z.literal(true).optional().openapi({
  description: "true on a record read from the archive, which D1 no longer holds; absent otherwise",
});

export const Quote = z
  .object({
    quoteId: z.string(),
    rfqId: z.string(),
    chainId: z.number().int(),
    status: QuoteStatus,
    final: z.boolean(),
    taker: Address,
    recipient: Address,
    sellToken: Address,
    buyToken: Address,
    sellAmount: Amount,
    received: Amount,
    minReceived: Amount.openapi({
      description:
        'the least the recipient gets: `received` less `slippageBps`, rounded down; the taker signs it on EVM, and a fill pays the whole of what its bid delivers after fees (docs/settlement.md, "When the winner fades")',
    }),
    slippageBps: z.number().int().openapi({ description: "the taker's tolerance the quote was asked with" }),
    fee: TokenAmount,
    gasFee: QuoteGasFee,
    takerPays: Amount,
    proceeds: Amount,
    offersHash: z.string(),
    band: Band.nullable(),
    quotedAt: Timestamp,
    expiresAt: Timestamp,
    resolver: QuoteResolver.nullable(),
    replies: Replies,
    offers: z.array(Offer),
    legs: z.array(QuoteLeg).openapi({
      description:
        "The fill's legs, from the winning offers: one, the whole swap, when one bid fills it; several when parts of different makers fill it together (docs/legs.md). Empty before a quote has a winner",
    }),
    steering: Steering.nullable(),
    executions: z.array(QuoteExecution),
    settlement: Settlement.nullable(),
    fills: z.array(Fill),
    timeline: z.array(TimelineEntry),
    archived: Archived,
  })
  .openapi("Quote");

export type Quote = z.infer<typeof Quote>;

/** A quote in a list (docs/api.md, "Lists of quotes"): the record without its offers and timeline. */
export const QuoteSummary = Quote.omit({ offers: true, legs: true, timeline: true, archived: true }).openapi(
  "QuoteSummary",
);
export type QuoteSummary = z.infer<typeof QuoteSummary>;

export const QuotePage = z
  .object({
    quotes: z.array(QuoteSummary),
    nextCursor: z.string().nullable().openapi({ description: "null on the last page" }),
    completeFrom: Timestamp.nullable().openapi({
      description:
        'every quote made after this time is listed; older ones may have left for the archive and are read by id (docs/api.md, "Archived records"); null when none has',
    }),
  })
  .openapi("QuotePage");

export type QuotePage = z.infer<typeof QuotePage>;

/** `GET /v1/quotes`: a taker's quotes or a resolver's wins, at most one of the two; neither, every quote. */
export const QuoteListQuery = z.object({
  taker: z.string().min(1).max(64).optional().openapi({ description: "the taker's quotes" }),
  resolver: z.string().min(1).max(64).optional().openapi({ description: "the quotes this resolver won" }),
  status: QuoteStatus.optional().openapi({ description: "as of now: an open quote past its expiry is expired" }),
  chainId: ChainIdQuery.openapi({ type: "string", description: "every chain by default" }),
  ...pageQuery("quotes"),
});

/**
 * What a quote's answer carries for the taker to sign, beside the record: one chain kind's fields. Nothing
 * else of what the relay keeps for settlement (the legs' signatures, which key each maker signed with, the
 * rent it took as paid) goes out.
 */
export const TakerSigning = z.object({
  typedData: z
    .record(z.string(), z.unknown())
    .optional()
    .openapi({ description: "EVM: the Permit2 typed data the taker signs (eth_signTypedData_v4)" }),
  transaction: z.string().optional().openapi({
    description: "Solana: the swap transaction, base64, the winner's signature in place, the taker's slot empty",
  }),
  lastValidBlockHeight: z.number().int().optional().openapi({
    description: "Solana: the last block height at which the transaction's blockhash lets it land",
  }),
});

/** The fields of `TakerSigning`, which alone of a quote's signing go to the taker. */
export const TAKER_SIGNING_FIELDS = Object.keys(TakerSigning.shape) as (keyof typeof TakerSigning.shape)[];

export type QuoteListQuery = z.output<typeof QuoteListQuery>;
export type QuoteStatus = z.infer<typeof QuoteStatus>;
export type ExecutionStatus = z.infer<typeof ExecutionStatus>;
export type TimelineEntry = z.infer<typeof TimelineEntry>;
export type Offer = z.infer<typeof Offer>;
export type QuoteLeg = z.infer<typeof QuoteLeg>;
export type Replies = z.infer<typeof Replies>;
export type Steering = z.infer<typeof Steering>;
export type Settlement = z.infer<typeof Settlement>;
export type Fill = z.infer<typeof Fill>;
export type Band = z.infer<typeof Band>;

/** What a settled fill cost the keeper and what it charged (docs/settlement.md, "The keeper's books"). */
export const KeeperBooks = z.object({
  spent: Amount.openapi({
    description:
      "What the keeper paid, in the chain's native base units: wei (gas used × effective gas price), or lamports (fee and rent)",
  }),
  charged: TokenAmount.openapi({ description: "The gas fee the quote charged, in the charged token" }),
  nativePrice: z.number().nullable().openapi({
    description: "Whole charged tokens per whole native unit the gas fee was priced at; null when it was the fallback",
  }),
});

export const Execution = z
  .object({
    executionId: z.string(),
    quoteId: z.string(),
    status: ExecutionStatus,
    ...reasonFields,
    txHash: z.string().nullable(),
    submitter: z.string().nullable(),
    gasUsed: Amount.nullable(),
    resolver: Address.nullable(),
    proceeds: Amount.nullable(),
    takerPays: Amount.nullable(),
    keeper: KeeperBooks.nullable().openapi({ description: "The keeper's books of a settled fill; null before" }),
    updatedAt: Timestamp,
    // A union rather than `.nullable()`: the document then says `anyOf [Quote, null]`. `.nullable()` of
    // the named Quote is written `allOf [Quote, {type: [object, null]}]`, which admits no null and which
    // generated clients read as a Quote whose every field is `never` (docs/api.md, "A typed client").
    lifecycle: z.union([Quote, z.null()]),
    archived: Archived,
  })
  .openapi("Execution");

export type Execution = z.infer<typeof Execution>;

export const IdParam = z.object({ id: z.string().openapi({ param: { name: "id", in: "path" } }) });
