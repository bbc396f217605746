import { type Address, createPublicClient, http, parseAbi } from "viem";
import type { InventoryEntry } from "../../protocol/node-frames";
import { sameToken } from "./pricing";
import type { ChainInfo } from "./relay-config";

/** Where a resolver's heartbeats get their inventory: read once per heartbeat, per corridor. */
export interface InventorySource {
  read(chain: ChainInfo, tokens: readonly string[]): Promise<InventoryEntry[]>;
}

/** Fixed balances and allowances, e.g. for tests and benchmarks; tokens it does not list are left out. */
export function staticInventory(entries: readonly InventoryEntry[]): InventorySource {
  return {
    read: async (chain, tokens) =>
      entries.filter((e) => e.chainId === chain.chainId && tokens.some((t) => sameToken(t, e.token))),
  };
}

const ERC20_ABI = parseAbi([
  "function balanceOf(address owner) view returns (uint256)",
  "function allowance(address owner, address spender) view returns (uint256)",
]);

/**
 * Live ERC20 inventory of `owner` on an EVM chain: its balance and what the chain's executor may pull,
 * the two things a settlement needs.
 */
export function rpcInventory(options: { rpcUrl: string; owner: Address }): InventorySource {
  const client = createPublicClient({ transport: http(options.rpcUrl) });
  return {
    read: (chain, tokens) =>
      Promise.all(
        tokens.map(async (token) => {
          const address = token as Address;
          const [balance, allowance] = await Promise.all([
            client.readContract({ address, abi: ERC20_ABI, functionName: "balanceOf", args: [options.owner] }),
            client.readContract({
              address,
              abi: ERC20_ABI,
              functionName: "allowance",
              args: [options.owner, chain.executor as Address],
            }),
          ]);
          return { chainId: chain.chainId, token, balance: balance.toString(), allowance: allowance.toString() };
        }),
      ),
  };
}

/** One source per chain id, `fallback` for the rest: live reads where an RPC is given, static elsewhere. */
export function inventoryByChain(sources: ReadonlyMap<number, InventorySource>, fallback: InventorySource) {
  return {
    read: (chain, tokens) => (sources.get(chain.chainId) ?? fallback).read(chain, tokens),
  } satisfies InventorySource;
}
