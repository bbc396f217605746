import { z } from "zod";
import { addressDescription, type ChainKind, isAddressOf, normaliseAddress } from "../chains";
import { Limits } from "../schemas";
import { checkOracleConfig, oracleSchema } from "./oracle";

/** Shared field shapes. Amounts are decimal strings in base units, never JS numbers. */
const addressOf = (kind: ChainKind) =>
  z.string().refine((v) => isAddressOf(kind, v), `must be ${addressDescription(kind)}`);
export const evmAddress = addressOf("evm");
export const solanaAddress = addressOf("solana");
export const baseUnits = z
  .string()
  .regex(/^(0|[1-9]\d*)$/, "must be a non-negative integer in base units, as a string");
const bps = z.number().int().min(0).max(10_000);
const chainId = z.number().int().positive();

/** Gas of an RFQ fill and of a limit fill on the local chain, measured (docs/api.md, "The gas fee"). */
const DEFAULT_GAS_UNITS = { rfq: 195_000, limit: 200_000 };

const gasFee = <T extends z.ZodType>(token: T) =>
  z.object({
    /** The fallback gas fee charged on each settlement, in base units of `token`. */
    fixed: baseUnits,
    /** The token the gas fee is charged in; null means the buy token of each quote. */
    token: token.nullable(),
  });

export const evmTokenSchema = z.object({
  symbol: z.string().min(1).max(16),
  address: evmAddress,
  decimals: z.number().int().min(0).max(36),
  minimum: baseUnits.nullable(),
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
  gasFee: gasFee(evmAddress).extend({
    /**
     * The gas one fill uses, until the chain has settled fills of its kind to take the median of
     * (docs/api.md, "The gas fee"); twice it is a fill's gas limit (docs/settlement.md, "Gas"). Not published.
     */
    units: z
      .object({
        rfq: z.number().int().min(21_000).max(10_000_000).default(DEFAULT_GAS_UNITS.rfq),
        limit: z.number().int().min(21_000).max(10_000_000).default(DEFAULT_GAS_UNITS.limit),
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

export const solanaTokenSchema = z.object({
  symbol: z.string().min(1).max(16),
  address: solanaAddress,
  tokenProgram: solanaAddress,
  decimals: z.number().int().min(0).max(18),
  minimum: baseUnits.nullable(),
});

export const solanaChainSchema = z.object({
  kind: z.literal("solana"),
  chainId,
  name: z.string().min(1),
  cluster: z.enum(["devnet", "testnet", "mainnet-beta"]),
  rpcUrl: z.url(),
  program: solanaAddress,
  treasury: solanaAddress,
  keeper: solanaAddress,
  tokens: z.array(solanaTokenSchema).min(2),
  fee: z.object({ tokens: z.array(solanaAddress).min(1), bps }),
  computeUnitLimit: z.number().int().min(1).max(1_400_000),
  computeUnitPrice: baseUnits,
  gasFee: gasFee(solanaAddress),
  pairs: z.array(z.tuple([solanaAddress, solanaAddress])).min(1),
});

export const chainSchema = z.discriminatedUnion("kind", [evmChainSchema, solanaChainSchema]);

export const limitOrdersSchema = z.object({
  minExpirySeconds: z.number().int().min(300).max(2_592_000),
  maxExpirySeconds: z.number().int().min(300).max(2_592_000),
  maxOpenPerTaker: z.number().int().min(1).max(1_000),
});

/**
 * How long D1 keeps a quote after it ended (docs/operations.md, "Retention"): one never submitted
 * (expired, cancelled, or failed before a broadcast) `unfilledDays`, one submitted with its executions
 * `filledDays`. Published in record 2.6.
 */
export const retentionSchema = z.object({
  unfilledDays: z.number().int().min(1).max(3_650).default(7),
  filledDays: z.number().int().min(1).max(3_650).default(400),
});

export const relayConfigSchema = z
  .object({
    chains: z.array(chainSchema).min(1),
    rfqWindowMs: z.number().int().min(50).max(10_000).default(1500),
    requireTakerProof: z.boolean().default(false),
    requireRegistration: z.boolean().default(false),
    maxOutstandingRfqs: z.number().int().min(1).max(100).default(3),
    quoteTtlSeconds: z.number().int().min(5).max(3_600).default(30),
    bandGuardBps: bps.default(300),
    limitOrders: limitOrdersSchema.nullable().default(null),
    /** Per-client limits (docs/security.md, "Limits"); every field has its default. */
    limits: Limits.prefault({}),
    retention: retentionSchema.prefault({}),
    /**
     * Fills the keeper's balance on a chain must still pay for, at the median cost of its recent fills;
     * under it the health check calls the chain degraded (docs/operations.md, "Health"). Internal, not in
     * record 2.6.
     */
    keeperFloorFills: z.number().int().min(0).max(1_000_000).default(20),
    /** Advisory rate bands (src/config/oracle.ts); internal, not in record 2.6. */
    oracle: oracleSchema.prefault({}),
  })
  .superRefine((config, ctx) => {
    const seen = new Set<number>();
    config.chains.forEach((chain, i) => {
      if (seen.has(chain.chainId)) {
        ctx.addIssue({ code: "custom", path: ["chains", i, "chainId"], message: "duplicate chainId" });
      }
      seen.add(chain.chainId);
      checkChainTokens(chain, (path, message) =>
        ctx.addIssue({ code: "custom", path: ["chains", i, ...path], message }),
      );
    });
    if (!config.chains.some((c) => c.kind === "evm")) {
      ctx.addIssue({ code: "custom", path: ["chains"], message: "at least one EVM chain is required" });
    }
    const lo = config.limitOrders;
    if (lo && lo.minExpirySeconds > lo.maxExpirySeconds) {
      ctx.addIssue({
        code: "custom",
        path: ["limitOrders", "minExpirySeconds"],
        message: "must not exceed maxExpirySeconds",
      });
    }
    checkOracleConfig(config, (path, message) => ctx.addIssue({ code: "custom", path, message }));
  });

type Chain = z.infer<typeof chainSchema>;

/** Every token a chain names elsewhere (gas fee, fee mints, pairs) must be one of its configured tokens. */
function checkChainTokens(chain: Chain, issue: (path: (string | number)[], message: string) => void): void {
  const known = new Set(chain.tokens.map((t) => normaliseAddress(chain.kind, t.address)));
  if (known.size !== chain.tokens.length) issue(["tokens"], "duplicate token address");
  const symbols = new Set(chain.tokens.map((t) => t.symbol));
  if (symbols.size !== chain.tokens.length) issue(["tokens"], "duplicate token symbol");
  const isKnown = (a: string) => known.has(normaliseAddress(chain.kind, a));
  if (chain.gasFee.token !== null && !isKnown(chain.gasFee.token)) {
    issue(["gasFee", "token"], "is not one of the chain's tokens");
  }
  if (chain.kind === "solana") {
    chain.fee.tokens.forEach((t, j) => {
      if (!isKnown(t)) issue(["fee", "tokens", j], "is not one of the chain's tokens");
    });
    chain.pairs.forEach(([a, b], j) => {
      if (!isKnown(a) || !isKnown(b)) issue(["pairs", j], "names a token the chain does not configure");
      else if (a === b) issue(["pairs", j], "pairs a token with itself");
    });
  }
}

export type RelayConfig = z.infer<typeof relayConfigSchema>;
export type EvmChain = z.infer<typeof evmChainSchema>;
export type SolanaChain = z.infer<typeof solanaChainSchema>;
export type ChainConfig = EvmChain | SolanaChain;
