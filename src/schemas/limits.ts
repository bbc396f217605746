import { z } from "@hono/zod-openapi";

const perSecond = (fallback: number, description: string) =>
  z.number().positive().max(100_000).default(fallback).openapi({ description });
const count = (fallback: number, description: string) =>
  z.number().int().min(1).max(1_000_000).default(fallback).openapi({ description });

/**
 * The limits that keep one client from taking the relay from others (docs/security.md, "Limits"), with
 * their defaults: the configuration's `limits` and record 2.6's. A client is an API key or an address
 * (docs/security.md, "Clients"); each limit is counted where its request already goes.
 */
export const Limits = z
  .object({
    quotesPerSecond: perSecond(10, "quote requests a client may make per second on one corridor"),
    quoteBurst: count(20, "quote requests a client may make at once on one corridor"),
    takerQuotesPer10s: count(100, "quote requests for one taker address in 10 s on one corridor"),
    preparesPerSecond: perSecond(2, "limit-order prepares a client may make per second on one corridor"),
    prepareBurst: count(4, "limit-order prepares a client may make at once on one corridor"),
    pricesPerSecond: perSecond(20, "indicative price requests a client may make per second on one corridor"),
    priceBurst: count(40, "indicative price requests a client may make at once on one corridor"),
    maxAuctionsInFlight: count(64, "auctions one corridor runs at once; past it 503 corridor_busy"),
    maxNodesPerRfq: count(20, "nodes one rfq asks at most: half by reliability, the rest in turn"),
    quoteHoldsPerCorridor: count(
      10_000,
      "open quotes whose output one corridor holds on their winners for their takers; past it the soonest to end goes",
    ),
    takerSubmissionsPer10s: count(20, "submissions with a valid signature per taker in 10 s"),
    failedSubmissionsPer10s: count(20, "submissions per client in 10 s whose signature or quote is refused"),
    streamsPerClient: count(20, "event streams a client may hold open on one corridor"),
    newSocketsPerMinute: count(10, "resolver sockets a client may open per minute on one corridor"),
    socketsPerClient: count(50, "resolver sockets a client may hold open on one corridor"),
    bidChecksAfterAnswer: count(
      4,
      "losing bids of an auction whose signatures are checked after the answer, drawn at random",
    ),
    socketsPerCorridor: count(500, "resolver sockets one corridor holds open; past it 503 corridor_busy"),
    streamsPerCorridor: count(1000, "event streams one corridor holds open; past it 503 corridor_busy"),
    adminFailuresPerMinute: count(10, "admin requests with a wrong token per client per minute"),
    apiKeyFailuresPerMinute: count(10, "requests with an unknown or revoked X-Api-Key per client per minute"),
    objectReadsPerSecond: perSecond(20, "reads per client per second that reach an object (a read-through, nodes)"),
    objectReadBurst: count(100, "reads a client may make at once that reach an object"),
    submissionsInFlightPerClient: count(50, "submissions of one client the keeper holds at once"),
    networkFailedSubmissionsPer10s: count(100, "refused submissions in 10 s from one IPv6 /48, all its clients"),
    relayFailedSubmissionsPer10s: count(1_000, "refused submissions in 10 s from every client together"),
    limitOrdersPerMinute: count(10, "limit orders a client may place per minute"),
    networkLimitOrdersPerMinute: count(50, "limit orders one IPv6 /48 may place per minute, all its clients"),
    relayLimitOrdersPerMinute: count(1_200, "limit orders every client together may place per minute"),
    maxSlippageBps: z
      .number()
      .int()
      .min(0)
      .max(10_000)
      .default(100)
      .openapi({ description: "the largest `slippageBps` a quote request may ask, in basis points of `received`" }),
  })
  .openapi("Limits");
export type Limits = z.infer<typeof Limits>;

/** What an API key may change of the limits for its own requests (docs/operations.md, "API keys"). */
export const ApiKeyQuotas = Limits.pick({
  quotesPerSecond: true,
  quoteBurst: true,
  preparesPerSecond: true,
  prepareBurst: true,
  pricesPerSecond: true,
  priceBurst: true,
  streamsPerClient: true,
  objectReadsPerSecond: true,
  objectReadBurst: true,
  failedSubmissionsPer10s: true,
  submissionsInFlightPerClient: true,
  limitOrdersPerMinute: true,
})
  .partial()
  .openapi("ApiKeyQuotas");
export type ApiKeyQuotas = z.infer<typeof ApiKeyQuotas>;

export const ApiKeyBody = z
  .object({
    name: z.string().min(1).max(100).openapi({ description: "who the key is for", example: "acme-wallet" }),
    quotas: ApiKeyQuotas.optional(),
  })
  .strict()
  .openapi("ApiKeyBody");

export const ApiKey = z
  .object({
    id: z.string().openapi({ example: "ak_0f5c2d9e8b7a6c5d4e3f2a1b0c9d8e7f" }),
    name: z.string(),
    quotas: ApiKeyQuotas,
    createdAt: z.string(),
    revokedAt: z.string().nullable(),
  })
  .openapi("ApiKey");

export const IssuedApiKey = ApiKey.extend({
  key: z.string().openapi({ description: "the key itself, shown only now: send it as `X-Api-Key`" }),
}).openapi("IssuedApiKey");

export const ApiKeyIdParam = z.object({
  id: z
    .string()
    .regex(/^ak_[0-9a-f]{32}$/)
    .openapi({ param: { name: "id", in: "path" } }),
});
