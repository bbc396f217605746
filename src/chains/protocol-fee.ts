import { type ChainConfig, kindOf } from "./kinds";

/** The protocol fee a chain's own contracts charge on one of the chain's tokens. */
export interface TokenFeeBps {
  symbol: string;
  address: string;
  bps: number;
}

/**
 * The protocol fee the chain's own contracts charge on each of its tokens (EVM: the FeeController's
 * `feeBpsFor`, one batch), or null on a chain whose contracts keep no bps (Solana: the relay's `fee.bps`
 * is what the swap carries). Rejects when the chain does not answer (docs/operations.md, "Health").
 */
export function readContractFeeBps(chain: ChainConfig, signal?: AbortSignal): Promise<TokenFeeBps[]> | null {
  return kindOf(chain).readContractFeeBps?.(chain, signal) ?? null;
}
