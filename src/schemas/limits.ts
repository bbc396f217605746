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
    takerSubmissionsPer10s: count(20, "submissions with a valid signature per taker in 10 s"),
    failedSubmissionsPer10s: count(20, "submissions per client in 10 s whose signature or quote is refused"),
    streamsPerClient: count(20, "event streams a client may hold open on one corridor"),
    newSocketsPerMinute: count(10, "resolver sockets a client may open per minute on one corridor"),
    socketsPerClient: count(50, "resolver sockets a client may hold open on one corridor"),
    adminFailuresPerMinute: count(10, "admin requests with a wrong token per client per minute"),
  })
  .openapi("Limits");
export type Limits = z.infer<typeof Limits>;

/** What an API key may change of the limits for its own requests (docs/security.md, "API keys"). */
export const ApiKeyQuotas = Limits.pick({
  quotesPerSecond: true,
  quoteBurst: true,
  preparesPerSecond: true,
  prepareBurst: true,
  pricesPerSecond: true,
  priceBurst: true,
  streamsPerClient: true,
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
