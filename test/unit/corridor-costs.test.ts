import { encodeAbiParameters } from "viem";
import { describe, expect, it } from "vitest";
import type { ChainCosts } from "../../src/chains/costs";
import { costRequests, evmChainCosts } from "../../src/chains/evm/costs";
import { FAILED_READ_RETRY_MS } from "../../src/chains/kept-input";
import { localConfig } from "../../src/config/local";
import type { EvmChain } from "../../src/config/schema";
import { CorridorCosts } from "../../src/costs/corridor-costs";
import { BAND, fakeCorridor, limitRound, quoteInput, USDC } from "../support/fake-corridor";

const chain = localConfig.chains.find((c): c is EvmChain => c.kind === "evm") as EvmChain;
const GWEI = 1_000_000_000n;

/** A chain whose every read answers `baseFee` and a 1 gwei tip, and 25 bps for USDC; counts its reads. */
function chainAt(baseFee: bigint) {
  const state = { baseFee, reads: 0 };
  const fetcher = async (_url: string, init: RequestInit) => {
    state.reads++;
    const body = JSON.parse(String(init.body)) as { id: number; method: string; params: [{ data?: string }] }[];
    expect(body.map((r) => r.method)).toEqual(costRequests(chain).map((r) => r.method));
    const answers = body.map(({ id, method, params }) => {
      if (method === "eth_getBlockByNumber")
        return { id, result: { baseFeePerGas: `0x${state.baseFee.toString(16)}` } };
      if (method === "eth_maxPriorityFeePerGas") return { id, result: `0x${GWEI.toString(16)}` };
      if (method === "eth_gasPrice") return { id, result: "0x1" };
      const usdc = params[0].data?.toLowerCase().includes(USDC.slice(2).toLowerCase());
      return { id, result: encodeAbiParameters([{ type: "uint16" }], [usdc ? 25 : 10]) };
    });
    return new Response(JSON.stringify(answers));
  };
  return { state, fetcher };
}

describe("an EVM chain's fill costs", () => {
  it("reads the base fee, the tip and the FeeController's bps in one batch, at most every 4 s", async () => {
    const rpc = chainAt(GWEI);
    let now = 1_000_000;
    const costs = evmChainCosts(chain, rpc.fetcher);
    expect(
      await costs.fillCost({ kind: "rfq", units: 100_000n, sellToken: "", buyToken: "", recipient: "" }, now),
    ).toBe(null);
    expect(costs.feeBps(USDC)).toBeNull();
    await costs.keepFresh(now);
    const fill = { kind: "rfq" as const, units: 100_000n, sellToken: "", buyToken: "", recipient: "" };
    expect(await costs.fillCost(fill, now)).toEqual({ native: 100_000n * 3n * GWEI, at: now });
    expect(costs.feeBps(USDC.toLowerCase())).toBe(25);
    rpc.state.baseFee = 10n * GWEI;
    now += 1_000;
    await costs.keepFresh(now);
    expect(rpc.state.reads).toBe(1);
    now += 3_000;
    await costs.keepFresh(now);
    expect(rpc.state.reads).toBe(2);
    expect(await costs.fillCost(fill, now)).toEqual({ native: 100_000n * 21n * GWEI, at: now });
  });

  it("keeps what it held when a read fails, and asks a chain that does not answer about once a second", async () => {
    const rpc = chainAt(GWEI);
    let now = 1_000_000;
    let down = false;
    let failed = 0;
    const costs = evmChainCosts(chain, (url, init) => {
      if (!down) return rpc.fetcher(url, init);
      failed++;
      return Promise.reject(new TypeError("fetch failed"));
    });
    await costs.keepFresh(now);
    down = true;
    now += 5_000;
    await costs.keepFresh(now);
    const fill = { kind: "rfq" as const, units: 1n, sellToken: "", buyToken: "", recipient: "" };
    expect(await costs.fillCost(fill, now)).toEqual({ native: 3n * GWEI, at: now - 5_000 });
    // Every quote asks for fresh inputs; the chain is asked again only FAILED_READ_RETRY_MS after it failed.
    for (let ms = 0; ms < FAILED_READ_RETRY_MS; ms += 10) await costs.keepFresh(now + ms);
    expect(failed).toBe(1);
    now += FAILED_READ_RETRY_MS;
    down = false;
    await costs.keepFresh(now);
    expect(failed).toBe(1);
    expect(await costs.fillCost(fill, now)).toEqual({ native: 3n * GWEI, at: now });
  });
});

/** A chain that has been read: `baseFee` wei with a 1 gwei tip; every taker's allowance read and covering. */
const readChain = (baseFee: bigint, at: () => number, feeBps: number | null = null): ChainCosts => ({
  nativeDecimals: 18,
  keepFresh: async () => {},
  fillCost: async (fill) => (fill.units === null ? null : { native: fill.units * (2n * baseFee + GWEI), at: at() }),
  feeBps: () => feeBps,
  keepTakerFresh: async () => {},
  carriesPermit: () => false,
});

describe("a corridor's costs", () => {
  it("prices a quote's gas fee from the chain and the oracle, and says so", async () => {
    // 180,000 gas × 3 gwei at 300 USDC per ETH: 0.162 USDC.
    const c = fakeCorridor({
      nodes: ["alpha"],
      chainCosts: readChain(GWEI, Date.now),
      rates: { tokens: [{ token: USDC, rate: 300, at: Date.now() }] },
    });
    c.house.keepFresh(Date.now());
    await c.settled();
    const pending = c.house.requestQuote(quoteInput());
    const rfq = await c.node("alpha").next("rfq");
    expect(rfq.gasFee).toEqual({ token: USDC, amount: "162000" });
    await c.bid("alpha", 1_000_000n);
    const outcome = await pending;
    if (outcome.kind !== "quoted") throw new Error(outcome.kind);
    expect(outcome.quote.gasFee).toEqual({ token: USDC, amount: "162000", source: "priced" });
    expect(c.store.quotes.get(outcome.quote.quoteId)?.quote).toMatchObject({ nativePrice: 300, fillKind: "rfq" });
  });

  it("charges a limit fill the priced fee, never above the maxGasFee its taker signed", async () => {
    const c = fakeCorridor({
      nodes: ["alpha"],
      chainCosts: readChain(GWEI, Date.now),
      rates: { tokens: [{ token: USDC, rate: 3000, at: Date.now() }] },
      band: { ...BAND, at: Date.now() },
    });
    c.house.keepFresh(Date.now());
    await c.settled();
    const pending = c.house.requestQuote(quoteInput({ limit: limitRound("900000") }));
    const rfq = await c.node("alpha").next("rfq");
    // Priced at 220,000 × 3 gwei × 3,000 = 1.98 USDC, capped at the order's 0.15 USDC.
    expect(rfq.gasFee).toEqual({ token: USDC, amount: "150000" });
    await c.bid("alpha", 1_100_000n);
    await pending;
  });

  it("asks the chain's protocol fee once it is read, else the configured one", async () => {
    let feeBps: number | null = null;
    const costs = new CorridorCosts({
      costs: { ...readChain(GWEI, Date.now), feeBps: () => feeBps },
      seedUnits: { rfq: 1n, limit: 1n, permit: 1n },
      readUnits: async () => null,
      readRates: async () => null,
      fallbackCharge: (_sell, buyToken) => ({ token: buyToken, amount: 50_000n, side: "buy" }),
      configuredFeeBps: 10,
      tokenDecimals: () => 6,
      sameAddress: (a, b) => a.toLowerCase() === b.toLowerCase(),
      waitUntil: () => {},
    });
    expect(costs.feeBps(USDC)).toBe(10);
    feeBps = 77;
    expect(costs.feeBps(USDC)).toBe(77);
  });

  it("takes the gas units from the chain's recent fills, else the configured seed", async () => {
    let median: bigint | null = null;
    const pending: Promise<unknown>[] = [];
    const costs = new CorridorCosts({
      costs: readChain(GWEI, Date.now),
      seedUnits: { rfq: 180_000n, limit: 220_000n, permit: 90_000n },
      readUnits: async (kind, permit) => (kind === "rfq" && permit === false ? median : null),
      readRates: async () => ({ tokens: [{ token: USDC, rate: 3000, at: Date.now() }] }),
      fallbackCharge: (_sell, buyToken) => ({ token: buyToken, amount: 50_000n, side: "buy" }),
      configuredFeeBps: 10,
      tokenDecimals: () => 6,
      sameAddress: (a, b) => a.toLowerCase() === b.toLowerCase(),
      waitUntil: (p) => pending.push(p),
    });
    costs.keepFresh(0);
    await Promise.all(pending);
    const plain = { permit: false, legs: 1 };
    expect(costs.unitsFor("rfq", plain)).toBe(180_000n);
    median = 120_000n;
    costs.keepFresh(60_000);
    await Promise.all(pending);
    expect([costs.unitsFor("rfq", plain), costs.unitsFor("limit", plain)]).toEqual([120_000n, 220_000n]);
  });
});
