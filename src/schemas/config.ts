import { z } from "@hono/zod-openapi";
import { Address, Amount } from "./common";
import { Limits } from "./limits";

const GasFee = z.object({ fixed: Amount, token: Address.nullable() });
const MinLegSellAmount = Amount.nullable().openapi({
  description: "the least of the token one leg of a fill sells; null: the token's minimum (docs/legs.md)",
});
const MaxLegs = z.number().int().openapi({ description: "the most legs (makers) one fill may have (docs/legs.md)" });

const EvmChainRecord = z.object({
  kind: z.literal("evm"),
  chainId: z.number().int(),
  name: z.string(),
  executor: Address,
  reactor: Address,
  validation: Address,
  permit2: Address,
  feeController: Address,
  tokens: z.array(
    z.object({
      symbol: z.string(),
      address: Address,
      decimals: z.number().int(),
      minimum: Amount.nullable(),
      minLegSellAmount: MinLegSellAmount,
    }),
  ),
  maxLegs: MaxLegs,
  gasFee: GasFee,
});

const SolanaChainRecord = z.object({
  kind: z.literal("solana"),
  chainId: z.number().int(),
  name: z.string(),
  cluster: z.enum(["devnet", "testnet", "mainnet-beta"]),
  program: Address,
  executor: Address,
  treasury: Address,
  keeper: Address,
  tokens: z.array(
    z.object({
      symbol: z.string(),
      address: Address,
      tokenProgram: Address,
      decimals: z.number().int(),
      minimum: Amount.nullable(),
      minLegSellAmount: MinLegSellAmount,
    }),
  ),
  maxLegs: MaxLegs,
  fee: z.object({ token: Address, tokens: z.array(Address), bps: z.number().int() }),
  computeUnitLimit: z.number().int(),
  computeUnitPrice: Amount,
  gasFee: GasFee,
  pairs: z.array(z.array(Address)),
});

export const Config = z
  .object({
    chains: z.array(z.discriminatedUnion("kind", [EvmChainRecord, SolanaChainRecord])),
    chainId: z.number().int(),
    executor: Address,
    reactor: Address,
    validation: Address,
    permit2: Address,
    feeController: Address,
    tokens: EvmChainRecord.shape.tokens,
    gasFee: GasFee,
    rfqWindowMs: z.number().int(),
    bandGuardBps: z.number().int().openapi({
      description:
        "How far, in bps, a bid's implied rate may stray below the oracle band's low or above its high and still win (docs/api.md, \"Ranking and steering\")",
    }),
    requireTakerProof: z.boolean(),
    requireRegistration: z.boolean(),
    maxOutstandingRfqs: z.number().int(),
    limits: Limits,
    limitOrders: z
      .object({
        minExpirySeconds: z.number().int(),
        maxExpirySeconds: z.number().int(),
        maxOpenPerTaker: z.number().int(),
      })
      .nullable(),
    retention: z
      .object({
        unfilledHours: z.number().int().openapi({
          description: "hours D1 keeps a never-submitted quote whole after it ended, before it is archived",
        }),
        unfilledDays: z.number().int().openapi({
          description: "days a never-submitted quote is still answered by id after it ended, from the archive",
        }),
        filledDays: z.number().int().openapi({
          description: "days D1 keeps a submitted quote and its executions whole after it ended, before it is archived",
        }),
      })
      .openapi({ description: "how long an ended quote stays in D1 and stays readable (docs/operations.md)" }),
  })
  .openapi("Config");
