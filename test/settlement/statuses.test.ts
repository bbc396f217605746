import { env } from "cloudflare:test";
import { type Hex, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, describe, expect, it, vi } from "vitest";
import { evmSettlement } from "../../src/chains/evm/settler";
import type { FillRequest, SignedFill } from "../../src/chains/settler";
import { localConfig } from "../../src/config/local";
import { primaryEvmChain } from "../../src/config/record";
import { KEEPER_KEY } from "./accounts";
import { noNonces, recordBatches } from "./chain-calls";
import { chainClient, testClient, walletOf } from "./helpers";

/**
 * What the indexer's pass reads of an EVM chain (docs/settlement.md, "The indexer and finality"): every
 * followed transaction's receipt in one JSON-RPC batch, then the blocks they landed in in a second, against
 * anvil; each receipt as the chain has it.
 */

const chain = { ...primaryEvmChain(localConfig), rpcUrl: env.TEST_CHAIN_RPC_URL };

afterEach(() => {
  vi.restoreAllMocks();
});

/** A transaction as the indexer hands it on: only its hash matters to a receipt. */
const followed = (hash: string): SignedFill => ({
  hash,
  raw: "0x",
  nonce: 0,
  call: { to: chain.executor, data: "0x" },
  request: {} as FillRequest,
});

describe("an EVM chain's statuses for the indexer", () => {
  it("reads every receipt in one batch and their blocks in a second, however many there are", async () => {
    const [settler] = evmSettlement(chain).withKeys(KEEPER_KEY, noNonces) ?? [];
    if (!settler) throw new Error("no settler");
    // Three plain transfers of a fresh account, each mined in its own block (anvil mines on each).
    const account = privateKeyToAccount(generatePrivateKey());
    await testClient.setBalance({ address: account.address, value: parseEther("1") });
    const wallet = walletOf(account);
    const hashes: Hex[] = [];
    for (let i = 0; i < 3; i++) hashes.push(await wallet.sendTransaction({ to: account.address, value: 0n }));
    const receipts = await Promise.all(hashes.map((hash) => chainClient.waitForTransactionReceipt({ hash })));
    const notMined = `0x${"ab".repeat(32)}`;

    const batches = recordBatches();
    const statuses = await settler.statuses([...hashes, notMined].map(followed));
    const landed = await Promise.all(statuses.slice(0, 3).map((status) => status()));

    expect(batches).toEqual([
      [
        "eth_getTransactionReceipt",
        "eth_getTransactionReceipt",
        "eth_getTransactionReceipt",
        "eth_getTransactionReceipt",
      ],
      ["eth_getBlockByNumber", "eth_getBlockByNumber", "eth_getBlockByNumber"],
    ]);
    for (const [i, receipt] of receipts.entries()) {
      const block = await chainClient.getBlock({ blockNumber: receipt.blockNumber });
      expect(landed[i]).toEqual({
        state: "landed",
        receipt: {
          hash: hashes[i],
          status: "success",
          block: Number(receipt.blockNumber),
          blockTime: new Date(Number(block.timestamp) * 1000).toISOString(),
          gasUsed: receipt.gasUsed,
          keeperSpent: receipt.gasUsed * receipt.effectiveGasPrice,
          from: account.address,
          fills: [],
        },
      });
    }
  });

  it("reads nothing for no transaction", async () => {
    const [settler] = evmSettlement(chain).withKeys(KEEPER_KEY, noNonces) ?? [];
    const batches = recordBatches();
    expect(await settler?.statuses([])).toEqual([]);
    expect(batches).toEqual([]);
  });
});
