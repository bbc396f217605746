import type { InventoryEntry } from "../protocol/frames";
import type { ProvedKeys } from "./adapter";

/**
 * Reads what a node holds on chain of `tokens`: per token its balance and what the settlement may pull
 * from it (EVM: the executor's ERC-20 allowance; Solana: the balance, as the resolver signs its own
 * transfer), in one request to the chain. Throws when the chain does not answer.
 */
export type InventoryReader = (node: ProvedKeys, tokens: readonly string[]) => Promise<InventoryEntry[]>;
