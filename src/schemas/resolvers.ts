import { z } from "@hono/zod-openapi";
import { SIGNER_TYPES } from "../protocol";
import { Address, Amount, pageQuery, Timestamp } from "./common";

const NodeState = z.enum(["quoting", "degraded", "paused"]);
/** Who holds the node's key, as its `auth` said (docs/resolver-protocol.md, "Authentication"); null when unsaid. */
const SignerType = z
  .enum(SIGNER_TYPES)
  .nullable()
  .openapi({ description: "who holds the node's key, as its auth said" });
/** A corridor as a node advertised it: the token order of its connect URL. */
export const AdvertisedCorridor = z.object({ chainId: z.number().int(), baseToken: Address, quoteToken: Address });
export type AdvertisedCorridor = z.infer<typeof AdvertisedCorridor>;

export const Node = z
  .object({
    address: Address,
    name: z.string(),
    version: z.string(),
    state: NodeState,
    degraded: z.string().nullable(),
    region: z.string().nullable(),
    signerType: SignerType,
    fresh: z.boolean(),
    corridors: z.array(AdvertisedCorridor),
    inventory: z.array(z.object({ chainId: z.number().int(), token: Address, balance: Amount, allowance: Amount })),
    connectedAt: Timestamp,
    lastHeartbeat: Timestamp.nullable(),
    solanaAddress: z.string().optional().openapi({ description: "present once the node proved a Solana key" }),
    chains: z.array(z.object({ chainId: z.number().int(), state: NodeState, degraded: z.string().nullable() })),
  })
  .openapi("Node");
export type Node = z.infer<typeof Node>;

/** One reliability measure over the window: its rate (null with no samples) and how many samples it has. */
const Measure = z.object({ rate: z.number().min(0).max(1).nullable(), samples: z.number().int().min(0) });

export const ReliabilityDetail = z
  .object({
    response: Measure.openapi({ description: "answered / asked; samples are rfqs asked" }),
    fill: Measure.openapi({
      description:
        "settled / (settled + failed through its own fault) fills of its wins; samples are those fills. A failure that was the taker's or the relay's is never counted",
    }),
    uptime: Measure.openapi({ description: "fresh-heartbeat time / connected time; samples are connected minutes" }),
  })
  .openapi("ReliabilityDetail", { description: "The last 7 days (docs/reliability.md)" });
export type ReliabilityDetail = z.infer<typeof ReliabilityDetail>;

export const Badge = z.enum(["fast", "reliable", "solana", "new", "honest_levels"]).openapi("Badge");
export type Badge = z.infer<typeof Badge>;

export const Resolver = z
  .object({
    address: Address,
    name: z.string(),
    region: z.string().nullable(),
    signerType: SignerType,
    version: z.string().nullable(),
    registered: z.boolean(),
    registeredAt: Timestamp.nullable(),
    reliability: z.number().min(0).max(1).nullable().openapi({
      description: "the product of the three rates of reliabilityDetail once each has 20 samples",
    }),
    reliabilityDetail: ReliabilityDetail.nullable(),
    badges: z.array(Badge).openapi({
      description:
        "In this order: fast, reliable, solana, new, honest_levels. `honest_levels` is given on a resolver's own record (GET /v1/resolvers/{address}) only, which reads its level samples; the directory's list never shows it",
    }),
    demoted: z.boolean(),
    demotedUntil: Timestamp.nullable(),
    demotionReason: z.string().nullable(),
    online: z.boolean(),
    state: NodeState.nullable(),
    degraded: z.string().nullable(),
    firstSeen: Timestamp.nullable(),
    lastSeen: Timestamp.nullable(),
    corridors: z.array(AdvertisedCorridor),
  })
  .openapi("Resolver");
export type Resolver = z.infer<typeof Resolver>;

/** `GET /v1/resolvers` (docs/api.md, "Nodes and resolvers"): the directory by address, a page at a time. */
export const ResolverListQuery = z.object({
  include: z.enum(["inactive"]).optional().openapi({ description: "`inactive` lists every resolver" }),
  ...pageQuery("resolvers"),
});
export type ResolverListQuery = z.infer<typeof ResolverListQuery>;

export const ResolverPage = z
  .object({
    resolvers: z.array(Resolver),
    inactive: z.number().int().openapi({ description: "how many inactive resolvers the directory left out" }),
    nextCursor: z.string().nullable().openapi({ description: "null on the last page" }),
  })
  .openapi("ResolverPage");
export type ResolverPage = z.infer<typeof ResolverPage>;

const ReplyLatency = z.object({ p50Ms: z.number().int(), p99Ms: z.number().int() }).openapi("ReplyLatency", {
  description: "each the upper bound of its latency bucket (25, 50, 100, 200, 400, 800 ms, then the auction window)",
});

const rate = z.number().min(0).max(1).nullable();

/** What stands behind a resolver's standing (docs/reliability.md, "A resolver's record"). */
export const ResolverStanding = Resolver.extend({
  strikes: z
    .array(
      z.object({
        at: Timestamp,
        event: z.string().openapi({ description: "the execution or rfq it was for" }),
        quoteId: z.string().nullable(),
        reason: z.string(),
        blame: z.literal("resolver"),
        demotedUntil: Timestamp,
      }),
    )
    .openapi({ description: "its last 50 strikes, newest first: each counted against it" }),
  notCounted: z
    .array(
      z.object({
        at: Timestamp,
        executionId: z.string(),
        quoteId: z.string(),
        status: z.enum(["failed", "requote"]),
        reason: z.string(),
        blame: z.enum(["taker", "relay"]),
      }),
    )
    .openapi({
      description: "the last 50 failed fills of its wins that were the taker's or the relay's: never counted",
    }),
  days: z
    .array(
      z.object({
        day: z.string().openapi({ example: "2026-11-24" }),
        asked: z.number().int(),
        answered: z.number().int(),
        won: z.number().int(),
        submitted: z.number().int().openapi({ description: "fills of its wins broadcast" }),
        settled: z.number().int(),
        failed: z.number().int().openapi({ description: "fills of its wins that failed through its own fault" }),
        responseRate: rate,
        fillRate: rate,
        replyLatency: ReplyLatency.nullable(),
      }),
    )
    .openapi({ description: "the 7 UTC days behind reliabilityDetail, oldest first, every day present" }),
  replyLatency: ReplyLatency.nullable().openapi({ description: "over the 7 days; null without replies" }),
  levels: z
    .object({
      samples: z.number().int().openapi({
        description:
          "rfqs its own fresh ladder covered: each firm bid measured against that ladder, a decline, no reply or bid outside the band guard counting as 10000 bps",
      }),
      p50SlippageBps: z.number().int().nullable(),
      p90SlippageBps: z.number().int().nullable(),
    })
    .openapi("LevelsStanding", {
      description:
        'How much worse what it did with the amounts its price ladders covered was than those ladders over the 7 days, in bps, each percentile as the bound of its slippage bucket (docs/reliability.md, "Honest levels"); null without samples',
    }),
}).openapi("ResolverStanding");
export type ResolverStanding = z.infer<typeof ResolverStanding>;

export const EvmAddressParam = z.object({
  address: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x address")
    .openapi({ param: { name: "address", in: "path" } }),
});

export const RegistrationBody = z
  .object({
    name: z.string().min(1).max(64).optional(),
    region: z.string().max(32).nullable().optional(),
    registered: z.boolean().optional(),
  })
  .strict();

export const DemoteBody = z
  .object({
    minutes: z.number().int().min(1).max(525_600).default(15),
    reason: z.string().min(1).max(200),
  })
  .strict();
