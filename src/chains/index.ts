import type { ChainConfig } from "../config/schema";
import type { ChainAdapter } from "./adapter";
import { evmAdapter } from "./evm/adapter";
import { evmSettlement } from "./evm/settler";
import type { SettlementScheme } from "./settler";
import { solanaAdapter } from "./solana/adapter";
import { solanaSettlement } from "./solana/settler";

const adapters = new WeakMap<ChainConfig, ChainAdapter>();

/** The adapter of a configured chain, made once per configuration object. */
export function adapterFor(chain: ChainConfig): ChainAdapter {
  let adapter = adapters.get(chain);
  if (!adapter) {
    adapter = chain.kind === "evm" ? evmAdapter(chain) : solanaAdapter(chain);
    adapters.set(chain, adapter);
  }
  return adapter;
}

/** How the keeper settles on a chain. */
export function settlerFor(chain: ChainConfig): SettlementScheme {
  return chain.kind === "evm" ? evmSettlement(chain) : solanaSettlement(chain);
}
