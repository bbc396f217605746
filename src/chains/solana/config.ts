import { z } from "zod";
import {
  addressOf,
  baseUnits,
  bps,
  type ConfigIssue,
  chainId,
  gasFee,
  maxLegs,
  minLegSellAmount,
} from "../config-shapes";
import { solanaAddressRules } from "./address";

/** A Solana chain's configuration (docs/configuration.md). */

const solanaAddress = addressOf(solanaAddressRules);

/**
 * The most legs a Solana swap may have: each leg past the first adds its resolver's signature, three
 * keys and up to five instructions (238 bytes), so two fit in the 1,232-byte packet (973 + 238 = 1,211)
 * and three do not (1,449) without an address lookup table (docs/legs.md, "How many legs a fill may
 * have"; test/unit/solana-legs-size.test.ts builds them).
 */
export const SOLANA_MAX_LEGS = 2;

export const solanaTokenSchema = z.object({
  symbol: z.string().min(1).max(16),
  address: solanaAddress,
  tokenProgram: solanaAddress,
  decimals: z.number().int().min(0).max(18),
  minimum: baseUnits.nullable(),
  minLegSellAmount,
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
  maxLegs: maxLegs(SOLANA_MAX_LEGS),
  fee: z.object({ tokens: z.array(solanaAddress).min(1), bps }),
  computeUnitLimit: z.number().int().min(1).max(1_400_000),
  computeUnitPrice: baseUnits,
  gasFee: gasFee(solanaAddress),
  pairs: z.array(z.tuple([solanaAddress, solanaAddress])).min(1),
});

export type SolanaChain = z.infer<typeof solanaChainSchema>;

/** The fee tokens and the configured pairs name only the chain's tokens (`isKnown`), a pair two of them. */
export function checkSolanaChain(chain: SolanaChain, isKnown: (address: string) => boolean, issue: ConfigIssue): void {
  chain.fee.tokens.forEach((t, j) => {
    if (!isKnown(t)) issue(["fee", "tokens", j], "is not one of the chain's tokens");
  });
  chain.pairs.forEach(([a, b], j) => {
    if (!isKnown(a) || !isKnown(b)) issue(["pairs", j], "names a token the chain does not configure");
    else if (a === b) issue(["pairs", j], "pairs a token with itself");
  });
}
