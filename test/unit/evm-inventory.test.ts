import { decodeFunctionData, encodeAbiParameters, erc20Abi, type Hex } from "viem";
import { describe, expect, it } from "vitest";
import { inventoryReaderFor } from "../../src/chains";
import type { ProvedKeys } from "../../src/chains/adapter";
import { evmInventoryReader, inventoryFromAnswers } from "../../src/chains/evm/inventory";
import { localConfig } from "../../src/config/local";
import type { EvmChain } from "../../src/config/schema";

const chain = localConfig.chains.find((c): c is EvmChain => c.kind === "evm") as EvmChain;
const [CNGN, USDC] = [chain.tokens[0]?.address as string, chain.tokens[1]?.address as string];
const NODE: ProvedKeys = {
  address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  publicKey: "0x04",
  solanaAddress: null,
};
const uint = (n: bigint) => encodeAbiParameters([{ type: "uint256" }], [n]);

interface Call {
  id: number;
  method: string;
  params: [{ to: string; data: Hex }, string];
}

/** A chain that holds `held[token][fn]` and records each HTTP request it is sent. */
function fakeRpc(held: Record<string, { balanceOf: bigint; allowance: bigint }>) {
  const requests: Call[][] = [];
  const fetcher = async (url: string, init: RequestInit) => {
    expect(url).toBe(chain.rpcUrl);
    const calls = JSON.parse(init.body as string) as Call[];
    requests.push(calls);
    const answers = calls.map(({ id, params: [{ to, data }] }) => {
      const { functionName, args } = decodeFunctionData({ abi: erc20Abi, data });
      if (functionName === "allowance") expect(args).toEqual([NODE.address, chain.executor]);
      else expect(args).toEqual([NODE.address]);
      const value = held[to]?.[functionName as "balanceOf" | "allowance"];
      return value === undefined ? { jsonrpc: "2.0", id, result: "0x" } : { jsonrpc: "2.0", id, result: uint(value) };
    });
    return new Response(JSON.stringify(answers.reverse()));
  };
  return { fetcher, requests };
}

describe("evmInventoryReader", () => {
  it("reads every token's balance and executor allowance in one batch request", async () => {
    const rpc = fakeRpc({
      [CNGN]: { balanceOf: 7n, allowance: 0n },
      [USDC]: { balanceOf: 5_000_000n, allowance: 2n ** 256n - 1n },
    });
    const entries = await evmInventoryReader(chain, rpc.fetcher)(NODE, [CNGN, USDC]);
    expect(rpc.requests).toHaveLength(1);
    expect(rpc.requests[0]?.map((c) => c.method)).toEqual(["eth_call", "eth_call", "eth_call", "eth_call"]);
    expect(entries).toEqual([
      { chainId: chain.chainId, token: CNGN, balance: "7", allowance: "0" },
      { chainId: chain.chainId, token: USDC, balance: "5000000", allowance: (2n ** 256n - 1n).toString() },
    ]);
  });

  it("fails when a token has no contract, the RPC answers an error, or it is down", async () => {
    const noContract = fakeRpc({ [CNGN]: { balanceOf: 1n, allowance: 1n } });
    await expect(evmInventoryReader(chain, noContract.fetcher)(NODE, [CNGN, USDC])).rejects.toThrow();
    const down = async () => new Response("unavailable", { status: 503 });
    await expect(evmInventoryReader(chain, down)(NODE, [CNGN])).rejects.toThrow("503");
    expect(() =>
      inventoryFromAnswers(
        1,
        [CNGN],
        [
          { id: 0, error: { message: "execution reverted" } },
          { id: 1, result: uint(1n) },
        ],
      ),
    ).toThrow("execution reverted");
    expect(() => inventoryFromAnswers(1, [CNGN], { error: "batch not supported" })).toThrow();
  });
});

describe("inventoryReaderFor", () => {
  it("reads every chain kind: EVM and Solana", () => {
    expect(inventoryReaderFor(chain)).toBeTypeOf("function");
    const solana = localConfig.chains.find((c) => c.kind === "solana");
    expect(solana && inventoryReaderFor(solana)).toBeTypeOf("function");
  });
});
