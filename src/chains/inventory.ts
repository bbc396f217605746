import type { ChainConfig } from "../config/schema";
import type { InventoryEntry } from "../protocol/frames";
import type { ProvedKeys } from "./adapter";
import { evmInventoryReader } from "./evm/inventory";

/**
 * Reads what a node holds on chain of `tokens`: per token its balance and what the settlement may pull
 * from it (EVM: the executor's ERC-20 allowance), in one request to the chain. Throws when the chain
 * does not answer.
 */
export type InventoryReader = (node: ProvedKeys, tokens: readonly string[]) => Promise<InventoryEntry[]>;

/**
 * How the relay reads nodes' inventory on a chain, or null when it cannot yet. Solana nodes are checked
 * by their heartbeats only until the relay settles on Solana: what a Solana fill pulls is not defined yet.
 */
export function inventoryReaderFor(chain: ChainConfig): InventoryReader | null {
  return chain.kind === "evm" ? evmInventoryReader(chain) : null;
}
