import type { ChainConfig, EvmChain } from "../config";
import type { ChainAdapter } from "./adapter";
import type { ChainCosts } from "./costs";
import { evmAdapter } from "./evm/adapter";
import { evmChainCosts } from "./evm/costs";
import { evmInventoryReader } from "./evm/inventory";
import { evmLimitOrders } from "./evm/limit-orders";
import { type LimitChainReads, rpcLimitReads } from "./evm/limit-reads";
import { evmSettlement } from "./evm/settler";
import type { InventoryReader } from "./inventory";
import type { LimitOrderChain } from "./limit-orders";
import type { SettlementScheme } from "./settler";
import { solanaAdapter } from "./solana/adapter";
import { solanaChainCosts } from "./solana/costs";
import { solanaInventoryReader } from "./solana/inventory";
import { solanaSettlement } from "./solana/settler";

/**
 * The chain factories: the one place that picks a chain kind's implementation of each port
 * (docs/architecture.md, "Where each fact lives").
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
    held = chain.kind === "evm" ? evmChainCosts(chain) : solanaChainCosts(chain);
    costs.set(chain, held);
  }
  return held;
}

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

/**
 * How the relay reads nodes' inventory on a chain (docs/resolver-protocol.md, "Inventory checked on
 * chain"): ERC-20 balances and the executor's allowances on EVM, the SPL balances of the node's proved
 * Solana key on Solana.
 */
export function inventoryReaderFor(chain: ChainConfig): InventoryReader {
  return chain.kind === "evm" ? evmInventoryReader(chain) : solanaInventoryReader(chain);
}

/** Limit orders on a configured chain, the chain read through `reads` (its JSON-RPC by default). */
export function limitOrdersFor(
  chain: ChainConfig,
  reads: (chain: EvmChain) => LimitChainReads = rpcLimitReads,
): LimitOrderChain | null {
  return chain.kind === "evm" ? evmLimitOrders(chain, reads(chain)) : null;
}
