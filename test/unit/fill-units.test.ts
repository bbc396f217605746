import { encodeAbiParameters } from "viem";
import { describe, expect, it } from "vitest";
import type { ChainCosts } from "../../src/chains/costs";
import { ALLOWANCE_MAX_AGE_MS, TakerAllowances } from "../../src/chains/evm/taker-allowances";
import { FAILED_READ_RETRY_MS } from "../../src/chains/kept-input";
import { CorridorCosts } from "../../src/costs/corridor-costs";
import { fillUnits, kindUnits, LEG_GAS } from "../../src/costs/fill-units";
import { CNGN, fakeCorridor, quoteInput, TAKER, USDC } from "../support/fake-corridor";

/**
 * The gas each kind of fill is priced at (docs/settlement.md, "The gas of each kind of fill"): plain, with
 * the taker's EIP-2612 permit, not known yet; and the per-leg term.
 */

const GWEI = 1_000_000_000n;
const PLAIN = 160_724n;
const PERMIT = 246_404n;

describe("the gas of each kind of fill", () => {
  const measured = kindUnits({ plain: PLAIN, permit: PERMIT }, { plain: 195_000n, permit: 90_000n });

  it("prices a plain fill at the plain median, and one with a permit, or not known, at the permit median", () => {
    expect(fillUnits(measured, { permit: false, legs: 1 })).toBe(PLAIN);
    expect(fillUnits(measured, { permit: true, legs: 1 })).toBe(PERMIT);
    expect(fillUnits(measured, { permit: null, legs: 1 })).toBe(PERMIT);
  });

  it("seeds a kind with no settled fills: plain from its seed, a permit fill as the plain one and the permit's seed", () => {
    const none = kindUnits({ plain: null, permit: null }, { plain: 195_000n, permit: 90_000n });
    expect(none).toEqual({ plain: 195_000n, permit: 285_000n });
    const plainOnly = kindUnits({ plain: PLAIN, permit: null }, { plain: 195_000n, permit: 90_000n });
    expect(plainOnly).toEqual({ plain: PLAIN, permit: PLAIN + 90_000n });
  });

  it("never prices a fill that may carry a permit under a plain one, whatever the medians' samples", () => {
    const inverted = { plain: 200_000n, permit: 150_000n };
    expect(fillUnits(inverted, { permit: true, legs: 1 })).toBe(200_000n);
    expect(fillUnits(inverted, { permit: null, legs: 1 })).toBe(200_000n);
    expect(fillUnits(inverted, { permit: false, legs: 1 })).toBe(200_000n);
  });

  it("adds the measured gas of a leg for each leg past the first, whatever the one-leg fill's median", () => {
    expect(fillUnits(measured, { permit: false, legs: 3 })).toBe(PLAIN + 2n * LEG_GAS);
    expect(fillUnits(measured, { permit: true, legs: 2 })).toBe(PERMIT + LEG_GAS);
    expect(fillUnits(measured, { permit: false, legs: 0 })).toBe(PLAIN);
    // On anvil a fill of four legs used 282,606 warm, one of one 164,771 (test/contracts/rfq-executor-legs.test.ts):
    // priced within 1 % over it (before, at a plain fill less the transaction's 21,000 a leg: 596,084).
    const four = fillUnits({ plain: 164_771n, permit: 250_000n }, { permit: false, legs: 4 });
    expect(four).toBeGreaterThanOrEqual(282_606n);
    expect(four - 282_606n).toBeLessThan(2_826n);
  });
});

/** An RPC answering every `allowance` call with `allowance`; counts the calls. */
function allowanceRpc(allowance: () => bigint) {
  const state = { calls: 0 };
  const fetcher = async (_url: string, init: RequestInit) => {
    const body = JSON.parse(String(init.body)) as { id: number; method: string }[];
    state.calls += body.length;
    const result = encodeAbiParameters([{ type: "uint256" }], [allowance()]);
    return new Response(JSON.stringify(body.map(({ id }) => ({ jsonrpc: "2.0", id, result }))));
  };
  return { state, fetcher };
}

describe("a taker's Permit2 allowance, read in the background", () => {
  const chain = { rpcUrl: "http://chain.test", permit2: "0x000000000022D473030F116dDEE9F6B43aC78BA3" };

  it("is not known before a read, then says whether a fill needs a permit; reads at most every 4 s", async () => {
    let allowance = 0n;
    const rpc = allowanceRpc(() => allowance);
    const held = new TakerAllowances(chain, () => {}, rpc.fetcher);
    expect(held.carriesPermit(TAKER, CNGN, 1_000n, 0)).toBeNull();
    await held.keepFresh(TAKER, CNGN, 0);
    expect(held.carriesPermit(TAKER, CNGN, 1_000n, 0)).toBe(true);
    allowance = 1_000n;
    await held.keepFresh(TAKER.toLowerCase(), CNGN, 1_000);
    expect(rpc.state.calls).toBe(1);
    await held.keepFresh(TAKER, CNGN, 4_000);
    expect(rpc.state.calls).toBe(2);
    expect(held.carriesPermit(TAKER, CNGN, 1_000n, 4_000)).toBe(false);
    expect(held.carriesPermit(TAKER, CNGN, 1_001n, 4_000)).toBe(true);
    // A read too old to go by is no answer: the fill is priced as if it carried a permit.
    expect(held.carriesPermit(TAKER, CNGN, 1_000n, 4_001 + ALLOWANCE_MAX_AGE_MS)).toBeNull();
    expect(held.carriesPermit(TAKER, USDC, 1n, 4_000)).toBeNull();
  });

  it("asks a chain that does not answer about once a second, however many new takers ask meanwhile", async () => {
    let calls = 0;
    const errors: unknown[] = [];
    const down = async () => {
      calls++;
      throw new TypeError("fetch failed");
    };
    const held = new TakerAllowances(chain, (e) => errors.push(e), down);
    const takers = Array.from({ length: 10 }, (_, i) => `0x${String(i + 1).padStart(40, "0")}`);
    for (const [i, taker] of takers.entries()) await held.keepFresh(taker, CNGN, i * 10);
    expect([calls, errors.length]).toEqual([1, 1]);
    await held.keepFresh(TAKER, CNGN, FAILED_READ_RETRY_MS);
    expect(calls).toBe(2);
    expect(held.carriesPermit(TAKER, CNGN, 1n, FAILED_READ_RETRY_MS)).toBeNull();
  });
});

/** An allowance check answering `carries`, noting each amount it was asked to cover. */
const noting =
  (asked: bigint[], carries: boolean): ChainCosts["carriesPermit"] =>
  (_taker, _token, pays) => {
    asked.push(pays);
    return carries;
  };

/** A chain read at 1 gwei base fee and 1 gwei tip, whose takers' allowances are `permit`'s answer. */
const chainWith = (permit: ChainCosts["carriesPermit"], reads: string[] = []): ChainCosts => ({
  nativeDecimals: 18,
  keepFresh: async () => {},
  fillCost: async (fill) => (fill.units === null ? null : { native: fill.units * 3n * GWEI, at: Date.now() }),
  feeBps: () => null,
  keepTakerFresh: async (taker) => {
    reads.push(taker);
  },
  carriesPermit: permit,
});

/** The corridor's costs over `chain`, at 1,000 USDC per ETH, with measured medians of both kinds. */
function costsOver(chain: ChainCosts, gasSide: "buy" | "sell" = "buy") {
  const pending: Promise<unknown>[] = [];
  const costs = new CorridorCosts({
    costs: chain,
    seedUnits: { rfq: 195_000n, limit: 200_000n, permit: 90_000n },
    readUnits: async (kind, permit) => (kind !== "rfq" ? null : permit ? PERMIT : PLAIN),
    readRates: async () => ({ tokens: [USDC, CNGN].map((token) => ({ token, rate: 1_000, at: Date.now() })) }),
    fallbackCharge: (sell, buy) => ({ token: gasSide === "buy" ? buy : sell, amount: 50_000n, side: gasSide }),
    configuredFeeBps: 10,
    tokenDecimals: () => 6,
    sameAddress: (a, b) => a.toLowerCase() === b.toLowerCase(),
    waitUntil: (p) => pending.push(p),
  });
  return { costs, settled: () => Promise.all(pending) };
}

/** `units` of gas at 3 gwei, in USDC base units at 1,000 USDC per ETH, rounded up. */
const usdcOf = (units: bigint) => (units * 3n * GWEI * 1_000n * 10n ** 6n + 10n ** 18n - 1n) / 10n ** 18n;

describe("a quote's gas fee, by the kind of fill its taker will send", () => {
  const fill = { kind: "rfq" as const, sellToken: CNGN, buyToken: USDC, recipient: TAKER };
  const payer = { taker: TAKER, paysBeforeGas: 1_580_000_000n };

  it("charges a plain fill's gas to a taker whose allowance covers it, a permit fill's to one whose does not", async () => {
    const asked: bigint[] = [];
    const covered = costsOver(chainWith(noting(asked, false)));
    await covered.costs.keepFresh(Date.now());
    expect((await covered.costs.charge({ ...fill, payer }, Date.now())).amount).toBe(usdcOf(PLAIN));
    expect(asked).toEqual([payer.paysBeforeGas]);
    const short = costsOver(chainWith(() => true));
    await short.costs.keepFresh(Date.now());
    expect((await short.costs.charge({ ...fill, payer }, Date.now())).amount).toBe(usdcOf(PERMIT));
  });

  it("charges the dearer kind when the allowance is not known yet, and starts its read for the next quote", async () => {
    const reads: string[] = [];
    const unknown = costsOver(chainWith(() => null, reads));
    await unknown.costs.keepFresh(Date.now());
    expect((await unknown.costs.charge({ ...fill, payer }, Date.now())).amount).toBe(usdcOf(PERMIT));
    expect(reads).toEqual([TAKER]);
    // An indicative price has no taker: what a new taker's quote would charge.
    expect((await unknown.costs.charge(fill, Date.now())).amount).toBe(usdcOf(PERMIT));
  });

  it("counts a gas fee paid in the sell token in what the allowance must cover", async () => {
    const asked: bigint[] = [];
    const sell = costsOver(chainWith(noting(asked, false)), "sell");
    await sell.costs.keepFresh(Date.now());
    const charged = await sell.costs.charge({ ...fill, payer }, Date.now());
    expect(asked).toEqual([payer.paysBeforeGas + usdcOf(PLAIN)]);
    expect(charged.amount).toBe(usdcOf(PLAIN));
  });

  it("prices a limit fill from the limit fills' median alike, with no allowance read", async () => {
    const reads: string[] = [];
    const { costs } = costsOver(chainWith(() => null, reads));
    await costs.keepFresh(Date.now());
    expect((await costs.charge({ ...fill, kind: "limit", payer }, Date.now())).amount).toBe(usdcOf(200_000n));
    expect(reads).toEqual([]);
  });

  it("goes out in the auction's rfq: a taker not read yet is charged the permit fill's gas", async () => {
    const c = fakeCorridor({
      nodes: ["alpha"],
      chainCosts: chainWith(() => null),
      rates: { tokens: [{ token: USDC, rate: 1_000, at: Date.now() }] },
    });
    c.house.keepFresh(Date.now());
    await c.settled();
    const pending = c.house.requestQuote(quoteInput());
    const rfq = await c.node("alpha").next("rfq");
    // The fake's seeds: 180,000 plain and 90,000 more with a permit.
    expect(rfq.gasFee).toEqual({ token: USDC, amount: usdcOf(270_000n).toString() });
    await c.bid("alpha", 1_000_000n);
    await pending;
  });
});
