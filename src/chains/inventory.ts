import type { InventoryEntry } from "../protocol";
import type { ProvedKeys } from "./adapter";

/**
 * What one read of a node's holdings shows: per token its balance and what the settlement may pull from
 * it, and whether the node's address has code. A resolver address with code (a contract, or an EOA
 * delegated by EIP-7702) has its signature checked on chain by that code (ERC-1271), not by ECDSA, so
 * what the relay accepted could still be refused: it is not asked (docs/resolver-protocol.md).
 */
export interface InventoryRead {
  entries: InventoryEntry[];
  hasCode: boolean;
  /**
   * Solana: an account of the node's (its associated account of a token read) is owned by another key, so a
   * swap could neither create it nor move its tokens: it is not asked (docs/reliability.md, "Blame").
   */
  ownerChanged?: boolean;
  /**
   * Solana: an account of the node's (its associated account of a token read) does not exist, so a swap
   * paying its sale into it would have to create it: it is not asked (docs/security.md, "A token account
   * closed for its rent").
   */
  accountMissing?: boolean;
}

/**
 * Reads what a node holds on chain of `tokens` (EVM: the executor's ERC-20 allowance beside the balance;
 * Solana: the balance, as the resolver signs its own transfer) and whether its address has code, in one
 * request to the chain. Throws when the chain does not answer.
 */
export type InventoryReader = (node: ProvedKeys, tokens: readonly string[]) => Promise<InventoryRead>;
