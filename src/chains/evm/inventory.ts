import { type Address, encodeFunctionData, erc20Abi } from "viem";
import type { EvmChain } from "../../config/schema";
import type { InventoryEntry } from "../../protocol/frames";
import type { InventoryReader } from "../inventory";
import { answersInOrder, type CallAnswer, type EthCall, ethCallBatch, type Fetcher, uintOf } from "./call-batch";

/** `owner`'s balance of each token and what `spender` may pull of it: two calls per token, balance first. */
function inventoryCalls(owner: Address, spender: Address, tokens: readonly string[]): EthCall[] {
  return tokens.flatMap((token) => [
    { to: token as Address, data: encodeFunctionData({ abi: erc20Abi, functionName: "balanceOf", args: [owner] }) },
    {
      to: token as Address,
      data: encodeFunctionData({ abi: erc20Abi, functionName: "allowance", args: [owner, spender] }),
    },
  ]);
}

/** The inventory a batch's answers show, or an error naming the first call that failed. */
function inventoryOf(chainId: number, tokens: readonly string[], answers: CallAnswer[]): InventoryEntry[] {
  return tokens.map((token, i) => ({
    chainId,
    token,
    balance: uintOf(answers[2 * i], `balanceOf of ${token}`).toString(),
    allowance: uintOf(answers[2 * i + 1], `allowance of ${token}`).toString(),
  }));
}

/** The inventory a raw batch answer shows (ids 2i balance, 2i + 1 allowance), or an error naming the failed call. */
export function inventoryFromAnswers(chainId: number, tokens: readonly string[], answers: unknown): InventoryEntry[] {
  return inventoryOf(chainId, tokens, answersInOrder(2 * tokens.length, answers));
}

/**
 * A node's ERC-20 balances and the executor's allowances on an EVM chain, all tokens in one JSON-RPC
 * batch request (docs/resolver-protocol.md, "inventory": `allowance` is what the executor may pull).
 */
export function evmInventoryReader(chain: EvmChain, fetcher?: Fetcher): InventoryReader {
  return async (node, tokens) => {
    const calls = inventoryCalls(node.address as Address, chain.executor as Address, tokens);
    return inventoryOf(chain.chainId, tokens, await ethCallBatch(chain.rpcUrl, calls, fetcher));
  };
}
