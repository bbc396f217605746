import { type Address, encodeFunctionData, erc20Abi } from "viem";
import type { EvmChain } from "../../config";
import type { InventoryEntry } from "../../protocol";
import type { InventoryRead, InventoryReader } from "../inventory";
import {
  asCallAnswer,
  type CallAnswer,
  type EthCall,
  ethCallRequest,
  type Fetcher,
  jsonRpcBatch,
  type RpcAnswer,
  rpcAnswersInOrder,
  uintOf,
} from "./call-batch";

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

/**
 * Whether an `eth_getCode` answer shows code: any bytes at all, an EIP-7702 delegation (`0xef0100` ‖
 * address) as much as a contract. Throws when the call failed or did not answer hex bytes.
 */
export function hasCodeOf(answer: RpcAnswer | undefined): boolean {
  if (!answer?.ok) throw new Error(`eth_getCode: ${answer?.error ?? "no answer"}`);
  const code = answer.result;
  if (typeof code !== "string" || !/^0x(?:[0-9a-fA-F]{2})*$/.test(code)) {
    throw new Error(`eth_getCode: returned ${JSON.stringify(code)}`);
  }
  return code !== "0x";
}

/** The read a batch's answers show (2i balance, 2i + 1 allowance, then the code), or an error naming the failed call. */
function inventoryReadOf(chainId: number, tokens: readonly string[], answers: RpcAnswer[]): InventoryRead {
  const calls = answers.slice(0, 2 * tokens.length).map(asCallAnswer);
  return { entries: inventoryOf(chainId, tokens, calls), hasCode: hasCodeOf(answers[2 * tokens.length]) };
}

/** The read a raw batch answer shows (ids as `inventoryReadOf`), or an error naming the failed call. */
export function inventoryFromAnswers(chainId: number, tokens: readonly string[], answers: unknown): InventoryRead {
  return inventoryReadOf(chainId, tokens, rpcAnswersInOrder(2 * tokens.length + 1, answers));
}

/**
 * A node's ERC-20 balances and the executor's allowances on an EVM chain, and its address's code, all in
 * one JSON-RPC batch request (docs/resolver-protocol.md, "inventory": `allowance` is what the executor
 * may pull; "Inventory checked on chain": a node with code is not asked).
 */
export function evmInventoryReader(chain: EvmChain, fetcher?: Fetcher): InventoryReader {
  return async (node, tokens) => {
    const calls = inventoryCalls(node.address as Address, chain.executor as Address, tokens);
    const requests = [...calls.map(ethCallRequest), { method: "eth_getCode", params: [node.address, "latest"] }];
    return inventoryReadOf(chain.chainId, tokens, await jsonRpcBatch(chain.rpcUrl, requests, fetcher));
  };
}
