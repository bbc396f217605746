import { type Address, decodeAbiParameters, encodeFunctionData, erc20Abi, type Hex } from "viem";
import type { EvmChain } from "../../config/schema";
import type { InventoryEntry } from "../../protocol/frames";
import type { InventoryReader } from "../inventory";

/** How long a node's inventory read may take before it counts as failed. */
const READ_TIMEOUT_MS = 5_000;

interface RpcCall {
  jsonrpc: "2.0";
  id: number;
  method: "eth_call";
  params: [{ to: Address; data: Hex }, "latest"];
}

/**
 * The JSON-RPC batch that reads `owner`'s balance of each token and what `spender` may pull of it:
 * two `eth_call`s per token, ids 2i (balance) and 2i + 1 (allowance).
 */
export function inventoryCalls(owner: Address, spender: Address, tokens: readonly string[]): RpcCall[] {
  return tokens.flatMap((token, i) => {
    const to = token as Address;
    const balance = encodeFunctionData({ abi: erc20Abi, functionName: "balanceOf", args: [owner] });
    const allowance = encodeFunctionData({ abi: erc20Abi, functionName: "allowance", args: [owner, spender] });
    return [
      { jsonrpc: "2.0", id: 2 * i, method: "eth_call", params: [{ to, data: balance }, "latest"] },
      { jsonrpc: "2.0", id: 2 * i + 1, method: "eth_call", params: [{ to, data: allowance }, "latest"] },
    ] satisfies RpcCall[];
  });
}

/** The inventory a batch answer shows, or an error naming the first call that failed. */
export function inventoryFromAnswers(chainId: number, tokens: readonly string[], answers: unknown): InventoryEntry[] {
  if (!Array.isArray(answers)) throw new Error("the RPC did not answer the batch with a batch");
  type Answer = { id?: unknown; result?: unknown; error?: { message?: unknown } } | null;
  const byId = new Map((answers as Answer[]).map((a) => [a?.id, a]));
  const uint = (id: number, functionName: "balanceOf" | "allowance"): string => {
    const answer = byId.get(id);
    if (!answer || typeof answer.result !== "string") {
      throw new Error(`${functionName} of ${tokens[id >> 1]}: ${String(answer?.error?.message ?? "no answer")}`);
    }
    // Both return one uint256; an address with no contract answers "0x", which does not decode.
    return decodeAbiParameters([{ type: "uint256" }], answer.result as Hex)[0].toString();
  };
  return tokens.map((token, i) => ({
    chainId,
    token,
    balance: uint(2 * i, "balanceOf"),
    allowance: uint(2 * i + 1, "allowance"),
  }));
}

/**
 * A node's ERC-20 balances and the executor's allowances on an EVM chain, all tokens in one JSON-RPC
 * batch request (docs/resolver-protocol.md, "inventory": `allowance` is what the executor may pull).
 */
export function evmInventoryReader(
  chain: EvmChain,
  fetcher: (url: string, init: RequestInit) => Promise<Response> = (url, init) => fetch(url, init),
): InventoryReader {
  return async (node, tokens) => {
    const body = inventoryCalls(node.address as Address, chain.executor as Address, tokens);
    // A timer cleared once the answer is in, not AbortSignal.timeout: a pending timer keeps the
    // corridor object from hibernating.
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(new Error("the RPC did not answer in time")), READ_TIMEOUT_MS);
    try {
      const res = await fetcher(chain.rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
        signal: abort.signal,
      });
      if (!res.ok) throw new Error(`the RPC answered ${res.status}`);
      return inventoryFromAnswers(chain.chainId, tokens, await res.json());
    } finally {
      clearTimeout(timer);
    }
  };
}
