import type { ChainConfig } from "../config/schema";
import type { ChainAdapter } from "./adapter";
import { evmAdapter } from "./evm/adapter";

/** The adapter of a chain's kind. Solana corridors are not quoted yet (see docs/api.md). */
export function adapterFor(chain: ChainConfig): ChainAdapter {
  if (chain.kind === "evm") return evmAdapter;
  throw new Error(`no quote adapter for ${chain.kind} chains yet`);
}
