import { type Hex, keccak256, parseTransaction, toHex } from "viem";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FeeCache } from "../../src/chains/evm/fee-cache";
import { parseKeeperKeys } from "../../src/chains/evm/keeper-key";
import { NonceCursor } from "../../src/chains/evm/nonces";
import { evmSettlement } from "../../src/chains/evm/settler";
import type { NonceFiller, NonceStore } from "../../src/chains/nonce-store";
import type { FillRequest } from "../../src/chains/settler";
import { localConfig } from "../../src/config/local";
import { primaryEvmChain } from "../../src/config/record";
import { chooseWallet } from "../../src/keeper/wallet-pool";

/**
 * The keeper's fast path (docs/settlement.md, "The fast path"): nonces and fee data are read before the
 * wallet's lock and kept, so signing reads nothing; and the wallet pool's choice and secret.
 */

const KEY_A = `0x${"11".repeat(32)}`;
const KEY_B = `0x${"22".repeat(32)}`;

/** A nonce store in memory, as the keeper object's SQLite keeps it. */
function memoryNonces(unmined = false) {
  const next = new Map<string, number>();
  const fillers = new Map<number, NonceFiller>();
  const store: NonceStore = {
    next: (address) => next.get(address) ?? null,
    hasUnmined: () => unmined,
    take(address, nonce, write) {
      write();
      next.set(address, Math.max(next.get(address) ?? 0, nonce + 1));
    },
    release(address, nonce, write) {
      write();
      if (next.get(address) === nonce + 1) next.set(address, nonce);
    },
    keepFiller(_address, filler, write) {
      write();
      fillers.set(filler.nonce, filler);
    },
    fillers: () => [...fillers.values()].sort((a, b) => a.nonce - b.nonce),
    dropFiller: (_address, nonce) => fillers.delete(nonce),
  };
  return { store, next, fillers };
}

/** A read the test answers when it likes, counting how many were started. */
function controlledRead<T>() {
  const pending: ((value: T) => void)[] = [];
  let started = 0;
  const read = () => {
    started++;
    return new Promise<T>((resolve) => pending.push(resolve));
  };
  return {
    read,
    started: () => started,
    answer: (value: T) => pending.shift()?.(value),
  };
}

describe("FeeCache", () => {
  const limits = { refreshMs: 2_000, maxAgeMs: 15_000 };

  it("waits for the first read, then serves the kept fees without reading", async () => {
    let now = 0;
    const rpc = controlledRead<number>();
    const fees = new FeeCache(rpc.read, () => now, limits);
    const ready = fees.ready();
    expect(rpc.started()).toBe(1);
    rpc.answer(7);
    await ready;
    now = 1_000;
    await fees.ready();
    expect(await fees.current()).toBe(7);
    expect(rpc.started()).toBe(1);
  });

  it("refreshes in the background once older than refreshMs, serving the old fees meanwhile", async () => {
    let now = 0;
    const rpc = controlledRead<number>();
    const fees = new FeeCache(rpc.read, () => now, limits);
    const first = fees.ready();
    rpc.answer(7);
    await first;

    now = 3_000;
    await fees.ready();
    // Not waited for: the read is under way, the kept fees still answer.
    expect(rpc.started()).toBe(2);
    expect(await fees.current()).toBe(7);
    await fees.ready();
    expect(rpc.started()).toBe(2);
    rpc.answer(9);
    await vi.waitFor(async () => expect(await fees.current()).toBe(9));
  });

  it("waits for a read when the fees are older than maxAgeMs (an idle keeper)", async () => {
    let now = 0;
    const rpc = controlledRead<number>();
    const fees = new FeeCache(rpc.read, () => now, limits);
    const first = fees.ready();
    rpc.answer(7);
    await first;

    now = 20_000;
    let done = false;
    const ready = fees.ready().then(() => {
      done = true;
    });
    await Promise.resolve();
    expect(done).toBe(false);
    rpc.answer(11);
    await ready;
    expect(await fees.current()).toBe(11);
  });

  it("keeps the old fees when a background refresh fails", async () => {
    let now = 0;
    let fail = false;
    const errors: unknown[] = [];
    const fees = new FeeCache(
      async () => {
        if (fail) throw new Error("down");
        return 5;
      },
      () => now,
      limits,
      (e) => errors.push(e),
    );
    await fees.ready();
    fail = true;
    now = 3_000;
    await fees.ready();
    await vi.waitFor(() => expect(errors).toHaveLength(1));
    expect(await fees.current()).toBe(5);
  });
});

describe("NonceCursor", () => {
  const wallet = { address: "0xabc", keeper: "0xAbC" };

  it("reads the chain once, then hands out one nonce after another without reading", async () => {
    const { store } = memoryNonces();
    const pendingCount = vi.fn(async () => 4);
    const cursor = new NonceCursor(wallet, store, pendingCount);
    await Promise.all([cursor.ready(), cursor.ready()]);
    expect(pendingCount).toHaveBeenCalledTimes(1);
    for (const expected of [4, 5, 6]) {
      const nonce = await cursor.peek();
      expect(nonce).toBe(expected);
      cursor.take(nonce, () => {});
    }
    expect(pendingCount).toHaveBeenCalledTimes(1);
  });

  it("starts past the stored nonce while the wallet's transactions are unmined (a node that lags)", async () => {
    const { store, next } = memoryNonces(true);
    next.set(wallet.address, 9);
    const cursor = new NonceCursor(wallet, store, async () => 4);
    expect(await cursor.peek()).toBe(9);
  });

  it("frees a refused nonce and reads the chain again before the next one", async () => {
    const { store, next } = memoryNonces();
    let pending = 4;
    const cursor = new NonceCursor(wallet, store, async () => pending);
    const nonce = await cursor.peek();
    cursor.take(nonce, () => {});
    expect(next.get(wallet.address)).toBe(5);
    cursor.forget(nonce, () => {});
    expect(next.get(wallet.address)).toBe(4);
    expect(cursor.known).toBe(false);
    pending = 6;
    expect(await cursor.peek()).toBe(6);
  });

  it("does not let a read begun before a refusal set the nonce", async () => {
    const { store } = memoryNonces();
    const rpc = controlledRead<number>();
    const cursor = new NonceCursor(wallet, store, rpc.read);
    const ready = cursor.ready();
    cursor.forget(0, () => {});
    rpc.answer(3);
    // The answer to the stale read is dropped and the chain read again.
    await vi.waitFor(() => expect(rpc.started()).toBe(2));
    rpc.answer(8);
    await ready;
    expect(await cursor.peek()).toBe(8);
  });
});

describe("the EVM settler's signing", () => {
  const chain = { ...primaryEvmChain(localConfig), rpcUrl: "http://rpc.test/" };
  const calls: string[] = [];
  const answers: Record<string, unknown> = {
    eth_getTransactionCount: "0x5",
    eth_chainId: "0x7a69",
    eth_maxPriorityFeePerGas: "0x3b9aca00",
    eth_gasPrice: "0x77359400",
    eth_getBlockByNumber: {
      number: "0x10",
      hash: `0x${"aa".repeat(32)}`,
      parentHash: `0x${"bb".repeat(32)}`,
      timestamp: "0x1",
      baseFeePerGas: "0x3b9aca00",
      gasLimit: "0x1c9c380",
      gasUsed: "0x0",
      transactions: [],
      uncles: [],
    },
  };

  afterEach(() => {
    vi.unstubAllGlobals();
    calls.length = 0;
  });

  function fakeRpc() {
    vi.stubGlobal("fetch", async (_url: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body)) as { id: number; method: string };
      calls.push(body.method);
      if (!(body.method in answers)) throw new Error(`unexpected ${body.method}`);
      return new Response(JSON.stringify({ jsonrpc: "2.0", id: body.id, result: answers[body.method] }), {
        headers: { "content-type": "application/json" },
      });
    });
  }

  const request = { quoteId: "q_1" } as FillRequest;
  const fill = { call: { to: chain.executor, data: "0x1234" }, gas: 100_000n };

  it("reads nothing from the chain while signing once the wallet is ready", async () => {
    fakeRpc();
    const [settler] = evmSettlement(chain).withKeys(KEY_A, memoryNonces().store) ?? [];
    if (!settler) throw new Error("no settler");
    await settler.ready();
    expect(calls).toContain("eth_getTransactionCount");
    calls.length = 0;

    const recorded: number[] = [];
    const first = await settler.sign(request, fill, (tx) => recorded.push(tx.nonce));
    const second = await settler.sign(request, fill, (tx) => recorded.push(tx.nonce));
    expect(calls).toEqual([]);
    expect([first.nonce, second.nonce]).toEqual([5, 6]);
    expect(recorded).toEqual([5, 6]);
  });

  it("gives each wallet of a pool its own nonces, and shares the chain's fee data", async () => {
    fakeRpc();
    const settlers = evmSettlement(chain).withKeys(`${KEY_A},${KEY_B}`, memoryNonces().store) ?? [];
    expect(settlers).toHaveLength(2);
    await Promise.all(settlers.map((s) => s.ready()));
    // One fee read for the chain (a block and a priority fee), one nonce read per wallet.
    expect(calls.filter((m) => m === "eth_getTransactionCount")).toHaveLength(2);
    expect(calls.filter((m) => m === "eth_getBlockByNumber")).toHaveLength(1);
    calls.length = 0;
    const [a, b] = settlers;
    const signedA = await a?.sign(request, fill, () => {});
    const signedB = await b?.sign(request, fill, () => {});
    expect(calls).toEqual([]);
    expect([signedA?.nonce, signedB?.nonce]).toEqual([5, 5]);
    expect(a?.keeper).not.toBe(b?.keeper);
  });
});

describe('the EVM settler\'s nonce gaps (docs/settlement.md, "Nonce gaps")', () => {
  const chain = { ...primaryEvmChain(localConfig), rpcUrl: "http://rpc.test/" };
  const sent: Hex[] = [];
  let mined = 5;
  /** While set, the node refuses every transaction sent. */
  let refusing = false;

  afterEach(() => {
    vi.unstubAllGlobals();
    sent.length = 0;
    refusing = false;
  });

  function fakeRpc() {
    vi.stubGlobal("fetch", async (_url: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body)) as { id: number; method: string; params: unknown[] };
      if (body.method === "eth_sendRawTransaction" && refusing) {
        const error = { code: -32000, message: "insufficient funds for gas * price + value" };
        return new Response(JSON.stringify({ jsonrpc: "2.0", id: body.id, error }), {
          headers: { "content-type": "application/json" },
        });
      }
      const result = (() => {
        switch (body.method) {
          case "eth_getTransactionCount":
            return toHex(body.params[1] === "latest" ? mined : 5);
          case "eth_gasPrice":
            return "0x77359400";
          case "eth_getBlockByNumber":
            return { number: "0x10", timestamp: "0x1", gasLimit: "0x1c9c380", gasUsed: "0x0", transactions: [] };
          case "eth_sendRawTransaction":
            sent.push(body.params[0] as Hex);
            return keccak256(body.params[0] as Hex);
          case "eth_getTransactionByHash":
            return null;
          default:
            throw new Error(`unexpected ${body.method}`);
        }
      })();
      return new Response(JSON.stringify({ jsonrpc: "2.0", id: body.id, result }), {
        headers: { "content-type": "application/json" },
      });
    });
  }

  const request = { quoteId: "q_1" } as FillRequest;
  const fill = { call: { to: chain.executor, data: "0x1234" }, gas: 100_000n };

  it("fills a refused nonce that a later transaction waits on, and frees the last one taken", async () => {
    fakeRpc();
    const { store, next, fillers } = memoryNonces();
    const [settler] = evmSettlement(chain).withKeys(KEY_A, store) ?? [];
    if (!settler) throw new Error("no settler");
    await settler.ready();
    const first = await settler.sign(request, fill, () => {});
    const second = await settler.sign(request, fill, () => {});
    const forgotten: number[] = [];

    // The first is refused while the second waits on its nonce: a transfer of nothing to the keeper takes it.
    await settler.release(first, () => forgotten.push(first.nonce));
    expect(forgotten).toEqual([5]);
    expect(next.get(settler.keeper.toLowerCase())).toBe(7);
    const filler = parseTransaction(sent[0] as Hex);
    expect(filler).toMatchObject({ nonce: 5, to: settler.keeper.toLowerCase(), gas: 21_000n });
    expect([filler.value ?? 0n, filler.data ?? "0x"]).toEqual([0n, "0x"]);
    expect(fillers.get(5)?.raw).toBe(sent[0]);

    // The second is refused too: nothing waits on it, so its nonce is the wallet's next again.
    await settler.release(second, () => forgotten.push(second.nonce));
    expect(forgotten).toEqual([5, 6]);
    expect(next.get(settler.keeper.toLowerCase())).toBe(6);
    expect(sent).toHaveLength(1);

    // Until the chain has mined nonce 5, the indexer's pass sends the filler again; then it is forgotten.
    await settler.fillGaps();
    expect(sent).toEqual([sent[0], sent[0]]);
    mined = 6;
    await settler.fillGaps();
    expect(sent).toHaveLength(2);
    expect(fillers.size).toBe(0);
  });

  it("holds its wallet back while a filler does not get through, until one send of it does", async () => {
    fakeRpc();
    mined = 5;
    const { store } = memoryNonces();
    const [settler] = evmSettlement(chain).withKeys(KEY_A, store) ?? [];
    if (!settler) throw new Error("no settler");
    await settler.ready();
    const first = await settler.sign(request, fill, () => {});
    await settler.sign(request, fill, () => {});
    refusing = true;
    await settler.release(first, () => {});
    expect(settler.gapOpen()).toBe(true);
    await settler.fillGaps();
    expect(settler.gapOpen()).toBe(true);
    refusing = false;
    await settler.fillGaps();
    expect(settler.gapOpen()).toBe(false);
    expect(sent).toHaveLength(1);
  });
});

describe("the keeper's wallet pool", () => {
  it("reads one key or several separated by commas, one wallet per key", () => {
    expect(parseKeeperKeys(KEY_A)).toEqual([KEY_A]);
    expect(parseKeeperKeys(` ${KEY_A} , ${KEY_B.slice(2)},`)).toEqual([KEY_A, KEY_B]);
    expect(parseKeeperKeys(`${KEY_A},${KEY_A.toUpperCase().replace("0X", "0x")}`)).toEqual([KEY_A]);
    expect(parseKeeperKeys(`${KEY_A},0x1234`)).toBeNull();
    expect(parseKeeperKeys("")).toBeNull();
    expect(parseKeeperKeys(undefined)).toBeNull();
  });

  it("gives a submission the least busy wallet, and among equals the one given out longest ago", () => {
    expect(chooseWallet([])).toBeNull();
    expect(
      chooseWallet([
        { load: 2, lastPicked: 0 },
        { load: 1, lastPicked: 5 },
        { load: 1, lastPicked: 3 },
      ]),
    ).toBe(2);
    expect(
      chooseWallet([
        { load: 0, lastPicked: 4 },
        { load: 0, lastPicked: -1 },
      ]),
    ).toBe(1);
  });
});
