import { z } from "@hono/zod-openapi";
import { Address, Amount, Timestamp } from "./common";

/** Corridor and keeper pauses, and the health record (docs/operations.md). */

export const PauseBody = z
  .object({ reason: z.string().max(200).optional().openapi({ description: "shown with the pause; public" }) })
  .openapi("PauseBody");

/** An operator's pause: when, and why if they said. */
export const Pause = z.object({ at: Timestamp, reason: z.string().nullable() }).openapi("Pause");
export type Pause = z.infer<typeof Pause>;

/** A corridor's state, in the words the spec uses for nodes: quoting, degraded (with why) or paused. */
export const CorridorState = z.enum(["quoting", "degraded", "paused"]);
export type CorridorState = z.infer<typeof CorridorState>;

export const CorridorRecord = z
  .object({
    key: z.string().openapi({ example: "31337:0x9fe4…:0xe7f1…" }),
    chainId: z.number().int(),
    tokens: z.array(z.object({ address: Address, symbol: z.string() })),
    state: CorridorState,
    degraded: z.string().nullable().openapi({
      description:
        "why it is degraded: `relay:<code>` (its last fill failed for the relay's own reason), `no_nodes` (no fresh resolver), `unreachable`",
    }),
    paused: Pause.nullable(),
    nodes: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "resolvers with a fresh heartbeat; null if unreachable" }),
  })
  .openapi("CorridorRecord");
export type CorridorRecord = z.infer<typeof CorridorRecord>;

/** The keeper's wallets on each chain: how many, and their addresses (each the submitter of its fills). */
const KeeperWallets = z.array(
  z.object({ chainId: z.number().int(), wallets: z.number().int(), addresses: z.array(Address) }),
);

/** The keeper's state, as the admin API shows it. */
export const KeeperRecord = z
  .object({
    paused: Pause.nullable(),
    followed: z.number().int().openapi({ description: "transactions followed between signing and finality" }),
    wallets: KeeperWallets,
  })
  .openapi("KeeperRecord");
export type KeeperRecord = z.infer<typeof KeeperRecord>;

/** A chain's keeper books over the last 24 h (docs/settlement.md, "The keeper's books"), native base units. */
const ChainBooks = z.object({
  fills: z.number().int().openapi({ description: "fills settled in the window with their spend recorded" }),
  spent: Amount.openapi({ description: "what the keeper paid for them (wei, lamports)" }),
  charged: Amount.openapi({
    description: "what their quotes charged, converted at each quote's native price; fallback fees left out",
  }),
  margin: z
    .string()
    .regex(/^-?(0|[1-9]\d*)$/)
    .openapi({ description: "charged − spent; negative when the keeper paid more than it charged", example: "-1200" }),
  unpriced: z.number().int().openapi({ description: "fills whose fee was the fallback: spent, but not in `charged`" }),
  capped: z.boolean().openapi({ description: "the window held more fills than are read: only the newest are counted" }),
});

const PartStatus = z.enum(["ok", "degraded", "paused"]);
/** How long a part took to answer, and what went wrong when it did not. */
const Probe = { ms: z.number().int(), error: z.string().nullable() };
const AgeSeconds = z.number().int().nullable();

export const Health = z
  .object({
    status: z.enum(["ok", "degraded"]),
    degraded: z.array(z.string()).openapi({ description: "the degraded parts, e.g. `chain:31337`, `keeper`" }),
    paused: z.array(z.string()).openapi({ description: "what an operator paused: `keeper`, `corridor:<key>`" }),
    checkedAt: Timestamp,
    keeper: z.object({
      status: PartStatus,
      reachable: z.boolean(),
      paused: Pause.nullable(),
      followed: z.number().int().nullable(),
      wallets: KeeperWallets,
      ...Probe,
    }),
    chains: z.array(
      z.object({
        chainId: z.number().int(),
        name: z.string(),
        status: PartStatus,
        reachable: z.boolean(),
        head: z.number().int().nullable().openapi({ description: "block number (EVM) or slot (Solana)" }),
        headAgeSeconds: AgeSeconds,
        books: ChainBooks.nullable().openapi({ description: "null when D1 did not answer" }),
        keeper: z.object({
          balance: Amount.nullable().openapi({
            description: "what the keeper's wallets on the chain hold, native base units; null when not read",
          }),
          fillsLeft: z.number().int().nullable().openapi({
            description: "balance ÷ the median `spent` of the window's fills; null without a fill in the window",
          }),
          floorFills: z.number().int().openapi({ description: "`keeperFloorFills`: under it the chain is degraded" }),
        }),
        protocolFee: z.object({
          bps: z.number().int().openapi({ description: "the configured `fee.bps`" }),
          onChain: z
            .array(z.object({ token: z.string(), bps: z.number().int() }))
            .nullable()
            .openapi({ description: "the FeeController's bps per token (EVM); null on Solana or when not read" }),
        }),
        ...Probe,
      }),
    ),
    oracle: z.object({
      status: PartStatus,
      active: z.boolean().openapi({ description: "polling: read in the last 3 minutes, or a corridor subscribed" }),
      bands: z.array(z.object({ corridor: z.string(), ageSeconds: AgeSeconds })),
      unavailable: z.array(z.string()),
      ...Probe,
    }),
    corridors: z.array(
      CorridorRecord.pick({ key: true, state: true, degraded: true, nodes: true }).extend({
        outbox: z.object({ queued: z.number().int(), oldestAgeSeconds: AgeSeconds }).nullable(),
        ms: z.number().int(),
      }),
    ),
    outbox: z.object({
      status: PartStatus,
      queued: z.number().int().openapi({ description: "D1 writes queued in the corridors, not yet copied" }),
      oldestAgeSeconds: AgeSeconds,
    }),
    limitOrders: z.object({ status: PartStatus, open: z.number().int().nullable(), ...Probe }),
  })
  .openapi("Health");
export type Health = z.infer<typeof Health>;
