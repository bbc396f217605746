import type { ChainAdapter } from "./adapter";
import type { ChainCosts } from "./costs";
import type { LimitChainReads } from "./evm/limit-reads";
import type { InventoryReader } from "./inventory";
import { type ChainConfig, kindOf } from "./kinds";
import type { LimitOrderChain } from "./limit-orders";
import type { SettlementScheme } from "./settler";

/**
 * The chain factories: each port of a configured chain, made by its kind's entry of the registry
 * (src/chains/kinds.ts; docs/architecture.md, "Where each fact lives").
 */

const adapters = new WeakMap<ChainConfig, ChainAdapter>();
const costs = new WeakMap<ChainConfig, ChainCosts>();

/**
 * What fills cost on a configured chain, made once per configuration object: one reader of the chain's
 * inputs per isolate, shared by the chain's corridors there.
 */
export function costsFor(chain: ChainConfig): ChainCosts {
  let held = costs.get(chain);
  if (!held) {
    held = kindOf(chain).costs(chain);
    costs.set(chain, held);
  }
  return held;
}

/** The adapter of a configured chain, made once per configuration object. */
export function adapterFor(chain: ChainConfig): ChainAdapter {
  let adapter = adapters.get(chain);
  if (!adapter) {
    adapter = kindOf(chain).adapter(chain);
    adapters.set(chain, adapter);
  }
  return adapter;
}

/** How the keeper settles on a chain. */
export function settlerFor(chain: ChainConfig): SettlementScheme {
  return kindOf(chain).settlement(chain);
}

/** How the relay reads nodes' inventory on a chain (docs/resolver-protocol.md, "Inventory checked on chain"). */
export function inventoryReaderFor(chain: ChainConfig): InventoryReader {
  return kindOf(chain).inventoryReader(chain);
}

/**
 * Limit orders on a configured chain, the chain read through `reads` (its JSON-RPC by default); null on a
 * kind without them.
 */
export function limitOrdersFor(
  chain: ChainConfig,
  reads?: (chain: ChainConfig) => LimitChainReads,
): LimitOrderChain | null {
  return kindOf(chain).limitOrders?.(chain, reads) ?? null;
}
