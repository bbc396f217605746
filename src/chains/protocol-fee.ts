import type { ChainConfig } from "../config";
import { fetcherWith } from "./evm/call-batch";
import { readFeeBps, type TokenFeeBps } from "./evm/fee-bps";

export type { TokenFeeBps } from "./evm/fee-bps";

/**
 * The protocol fee the chain's own contracts charge on each of its tokens (EVM: the FeeController's
 * `feeBpsFor`, one batch), or null on a chain whose contracts keep no bps (Solana: the relay's `fee.bps`
 * is what the swap carries). Rejects when the chain does not answer (docs/operations.md, "Health").
 */
export function readContractFeeBps(chain: ChainConfig, signal?: AbortSignal): Promise<TokenFeeBps[]> | null {
  if (chain.kind !== "evm") return null;
  return readFeeBps(chain, signal ? fetcherWith(signal) : undefined);
}
