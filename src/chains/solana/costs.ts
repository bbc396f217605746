import type { SolanaChain } from "../../config/schema";
import type { ChainCosts } from "../costs";

/** Solana fill costs: not priced yet, so every quote charges the configured fallback. */
export function solanaChainCosts(chain: SolanaChain): ChainCosts {
  return {
    nativeDecimals: 9,
    keepFresh: async () => {},
    fillCost: async () => null,
    feeBps: () => chain.fee.bps,
  };
}
