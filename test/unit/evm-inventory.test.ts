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
  ed25519Key: null,
};
const uint = (n: bigint) => encodeAbiParameters([{ type: "uint256" }], [n]);

type Call =
  | { id: number; method: "eth_call"; params: [{ to: string; data: Hex }, string] }
  | { id: number; method: "eth_getCode"; params: [string, string] };

/** An EIP-7702 delegation of the node's account: `0xef0100` ‖ the delegate's address. */
const DELEGATED = "0xef01005fbdb2315678afecb367f032d93f642f64180aa3";

/**
 * A chain that holds `held[token][fn]`, with `code` at the node's address, and records each HTTP request
 * it is sent.
 */
function fakeRpc(held: Record<string, { balanceOf: bigint; allowance: bigint }>, code: unknown = "0x") {
  const requests: Call[][] = [];
  const fetcher = async (url: string, init: RequestInit) => {
    expect(url).toBe(chain.rpcUrl);
    const calls = JSON.parse(init.body as string) as Call[];
    requests.push(calls);
    const answers = calls.map((call) => {
      const { id } = call;
      if (call.method === "eth_getCode") {
        expect(call.params).toEqual([NODE.address, "latest"]);
        return { jsonrpc: "2.0", id, result: code };
      }
      const [{ to, data }] = call.params;
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
  it("reads every token's balance and executor allowance, and the node's code, in one batch request", async () => {
    const rpc = fakeRpc({
      [CNGN]: { balanceOf: 7n, allowance: 0n },
      [USDC]: { balanceOf: 5_000_000n, allowance: 2n ** 256n - 1n },
    });
    const { entries, hasCode } = await evmInventoryReader(chain, rpc.fetcher)(NODE, [CNGN, USDC]);
    expect(rpc.requests).toHaveLength(1);
    expect(rpc.requests[0]?.map((c) => c.method)).toEqual([
      "eth_call",
      "eth_call",
      "eth_call",
      "eth_call",
      "eth_getCode",
    ]);
    expect(entries).toEqual([
      { chainId: chain.chainId, token: CNGN, balance: "7", allowance: "0" },
      { chainId: chain.chainId, token: USDC, balance: "5000000", allowance: (2n ** 256n - 1n).toString() },
    ]);
    expect(hasCode).toBe(false);
  });

  it("says a node has code when its address holds any: an EIP-7702 delegation as much as a contract", async () => {
    const held = { [USDC]: { balanceOf: 1n, allowance: 1n } };
    for (const code of [DELEGATED, "0x6080604052", "0x00"]) {
      expect((await evmInventoryReader(chain, fakeRpc(held, code).fetcher)(NODE, [USDC])).hasCode).toBe(true);
    }
    expect((await evmInventoryReader(chain, fakeRpc(held, "0x").fetcher)(NODE, [USDC])).hasCode).toBe(false);
    // An answer that is not code fails the read, so the previous one stands.
    for (const code of ["0x0", null, 12]) {
      await expect(evmInventoryReader(chain, fakeRpc(held, code).fetcher)(NODE, [USDC])).rejects.toThrow("eth_getCode");
    }
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
          { id: 2, result: "0x" },
        ],
      ),
    ).toThrow("execution reverted");
    expect(() =>
      inventoryFromAnswers(
        1,
        [CNGN],
        [
          { id: 0, result: uint(1n) },
          { id: 1, result: uint(1n) },
          { id: 2, error: { message: "method not found" } },
        ],
      ),
    ).toThrow("eth_getCode: method not found");
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
