import { z } from "zod";
import { addressOf, baseUnits, bps, chainId, gasFee, maxLegs, minLegSellAmount } from "../config-shapes";
import { evmAddressRules } from "./address";

/** An EVM chain's configuration (docs/configuration.md). */

const evmAddress = addressOf(evmAddressRules);

/**
 * Gas of an RFQ fill and of a limit fill on the local chain, measured (docs/api.md, "The gas fee"), and
 * what an RFQ fill carrying the taker's EIP-2612 permit adds: a taker's first fill, with a permit, used
 * 85,680 more than its next, plain, one; rounded up (docs/settlement.md, "The gas of each kind of fill").
 */
const DEFAULT_GAS_UNITS = { rfq: 195_000, limit: 200_000, permit: 90_000 };

/** The most legs an EVM fill may have (docs/legs.md, "How many legs a fill may have"). */
export const EVM_MAX_LEGS = 4;

export const evmTokenSchema = z.object({
  symbol: z.string().min(1).max(16),
  address: evmAddress,
  decimals: z.number().int().min(0).max(36),
  minimum: baseUnits.nullable(),
  minLegSellAmount,
});

export const evmChainSchema = z.object({
  kind: z.literal("evm"),
  chainId,
  name: z.string().min(1),
  /** JSON-RPC endpoint the keeper and indexer use. Not published. */
  rpcUrl: z.url(),
  executor: evmAddress,
  reactor: evmAddress,
  validation: evmAddress,
  permit2: evmAddress,
  feeController: evmAddress,
  tokens: z.array(evmTokenSchema).min(2),
  maxLegs: maxLegs(EVM_MAX_LEGS),
  gasFee: gasFee(evmAddress).extend({
    /**
     * The gas one fill uses, until the chain has settled fills of its kind to take the median of
     * (docs/api.md, "The gas fee"); twice it is a fill's gas limit (docs/settlement.md, "Gas"). Not published.
     */
    units: z
      .object({
        rfq: z.number().int().min(21_000).max(10_000_000).default(DEFAULT_GAS_UNITS.rfq),
        limit: z.number().int().min(21_000).max(10_000_000).default(DEFAULT_GAS_UNITS.limit),
        /** The gas a permit adds to an RFQ fill, until the chain has settled RFQ fills that carried one. */
        permit: z.number().int().min(0).max(10_000_000).default(DEFAULT_GAS_UNITS.permit),
      })
      .prefault({}),
  }),
  /** Protocol fee in basis points of the resolver's output. Not published; quotes show the amount. */
  fee: z.object({ bps }),
  /** Confirmations after which a settlement is final. */
  finalityConfirmations: z.number().int().min(1).max(1_000),
  /**
   * A fill not mined `afterSeconds` after its broadcast is sent again with the same nonce at fees
   * `bumpPercent` % higher, at most `maxBumps` times (docs/settlement.md, "Stuck transactions").
   */
  replacement: z
    .object({
      afterSeconds: z.number().int().min(1).max(3_600),
      bumpPercent: z.number().int().min(10).max(200),
      maxBumps: z.number().int().min(0).max(10),
    })
    .default({ afterSeconds: 30, bumpPercent: 25, maxBumps: 3 }),
});

export type EvmChain = z.infer<typeof evmChainSchema>;
