import { toHex } from "viem";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { ResolverClient } from "../../src/clients/resolver/client";
import type { Quote } from "../../src/schemas/quote";
import { startResolverFleet, stopFleet } from "../support/reference-resolvers";
import { client } from "./evm-chain";

const base = inject("relayUrl");
const CNGN = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
const USDC = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0";
const TAKER = "0x976EA74026E726554dB657fA54763abd0C3a0aa9";

let fleet: ResolverClient[] = [];
beforeAll(async () => {
  fleet = await startResolverFleet(base, { count: 3, latencyMs: 10 });
});
afterAll(() => stopFleet(fleet));

describe("quotes with reference resolvers over real sockets (wrangler dev)", () => {
  it("shows the three resolvers in /v1/nodes, and in /v1/resolvers those with a directory entry", async () => {
    // The fleet claims 10^18 of each token, more than any of its keys holds: the chain never covers it, so
    // a key of it has a directory entry only from an earlier file's resolver of the same key
    // (docs/reliability.md, "The directory"), and otherwise shows why in /v1/nodes.
    await expect
      .poll(async () => {
        const { nodes } = (await (await fetch(`${base}/v1/nodes`)).json()) as {
          nodes: { address: string; fresh: boolean; degraded: string | null }[];
        };
        const { resolvers } = (await (await fetch(`${base}/v1/resolvers`)).json()) as {
          resolvers: { address: string; online: boolean }[];
        };
        return fleet.map((c) => {
          const node = nodes.find((n) => n.address === c.address);
          const entry = resolvers.find((r) => r.address === c.address);
          return node?.fresh === true && (entry?.online === true || node.degraded === "inventory_mismatch");
        });
      })
      .toEqual([true, true, true]);
  });

  it("runs an auction and stores the quote the best resolver won", async () => {
    const res = await fetch(`${base}/v1/quotes`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ sellToken: CNGN, buyToken: USDC, sellAmount: "1580000000", taker: TAKER }),
    });
    expect(res.status).toBe(200);
    const quote = (await res.json()) as Quote & { typedData: unknown };
    expect(quote.replies).toEqual({ valid: 3, rejected: 0, declined: 0, noReply: 0, late: 0 });
    expect(quote.resolver?.name).toBe("ref-1");
    // 1,580 cNGN at 0.000633 USDC/cNGN is 1.00014 USDC; less the 10 bps fee and the gas fee, priced from
    // anvil's fees at the local ETH price.
    expect(quote.offers[0]?.outputAmount).toBe("1000140");
    expect(quote.gasFee).toMatchObject({ token: USDC, source: "priced" });
    expect(quote.received).toBe(String(1_000_140n - 1_000n - BigInt(quote.gasFee.amount)));
    const { typedData: _t, ...record } = quote;
    expect(await (await fetch(`${base}/v1/quotes/${quote.quoteId}`)).json()).toStrictEqual(record);
  });

  it("prices the gas fee from the chain: ten times the base fee is about ten times a new quote's fee", async () => {
    // 100 USDC of cNGN: enough to cover the fee at 50 gwei (195,000 gas × 101 gwei at 3,000 USDC per ETH).
    const quote = async () => {
      const res = await fetch(`${base}/v1/quotes`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ sellToken: CNGN, buyToken: USDC, sellAmount: "158000000000", taker: TAKER }),
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as Quote).gasFee;
    };
    const setBaseFee = async (wei: bigint) => {
      await client.request({ method: "anvil_setNextBlockBaseFeePerGas" as never, params: [toHex(wei)] as never });
      await client.request({ method: "evm_mine" as never, params: [] as never });
    };
    const GWEI = 10n ** 9n;
    const before = (await client.getBlock()).baseFeePerGas ?? 0n;
    /** Quotes until the fee has moved off `from` (the corridor reads the chain every 4 s while in use). */
    const feeAfter = async (from: string | null) => {
      for (let i = 0; i < 20; i++) {
        const fee = await quote();
        if (fee.amount !== from) return fee;
        await new Promise((r) => setTimeout(r, 1_000));
      }
      throw new Error(`the gas fee stayed ${from}`);
    };
    // No block but the ones set below: each empty block would move the base fee by 12.5 % (EIP-1559),
    // and the corridor reads it every 4 s, so with a block a second the two fees would be read at
    // different distances from the blocks set.
    await client.request({ method: "evm_setIntervalMining" as never, params: [0] as never });
    // The taker's first quotes are priced as a fill with a permit until its Permit2 allowance is read beside
    // them (docs/settlement.md, "The gas of each kind of fill"): the fee settles on its kind first.
    let first = await quote();
    for (let i = 0; i < 20; i++) {
      await new Promise((r) => setTimeout(r, 500));
      const again = await quote();
      if (again.amount === first.amount) break;
      first = again;
    }
    let last = first.amount;
    try {
      await setBaseFee(5n * GWEI);
      const low = await feeAfter(last);
      await setBaseFee(50n * GWEI);
      const high = await feeAfter(low.amount);
      last = high.amount;
      expect([low.source, high.source]).toEqual(["priced", "priced"]);
      const ratio = Number(high.amount) / Number(low.amount);
      // About tenfold: the tip, if any, does not scale.
      expect(ratio).toBeGreaterThan(8);
      expect(ratio).toBeLessThan(12);
    } finally {
      // The chain as it was, and the relay's price with it, for the files that swap after this one.
      await setBaseFee(before);
      await client.request({ method: "evm_setIntervalMining" as never, params: [1] as never });
      await feeAfter(last);
    }
  });
});
