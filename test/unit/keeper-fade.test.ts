import { describe, expect, it } from "vitest";
import type { SignedOffer } from "../../src/db/fades";
import { replacementTerms } from "../../src/keeper/fade";
import { leadOf, type ReplacementTerms, replacementOf } from "../../src/keeper/replacement";

/**
 * What fills a faded quote (docs/settlement.md, "When the winner fades"; docs/legs.md, "Settlement and blame"):
 * the best fill of its other offers, whole bids and parts, under what the taker signed.
 */

const USDC = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0";
const CNGN = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const SELL = 900n;
const GAS = 50_000n;

const offer = (rank: number, over: Partial<SignedOffer> = {}): SignedOffer => ({
  rank,
  resolver: `0x${String(rank).repeat(40)}`,
  name: `r${rank}`,
  outputAmount: "1000000",
  status: "lost",
  signature: "0xsig",
  received: "949000",
  sellAmount: null,
  ...over,
});
const part = (rank: number, sellAmount: bigint, outputAmount: bigint, over: Partial<SignedOffer> = {}) =>
  offer(rank, { sellAmount: sellAmount.toString(), outputAmount: outputAmount.toString(), ...over });

/** 10 bps from each leg's output, the signed gas fee from the output, at most `maxLegs` legs. */
const terms = (over: Partial<ReplacementTerms> = {}): ReplacementTerms => ({
  sellAmount: SELL,
  minReceived: 0n,
  gasFromOutput: GAS,
  maxLegs: 3,
  fee: { bps: 10, side: "buy" },
  ...over,
});
const net = (out: bigint) => out - (out * 10n) / 10_000n;
const ranks = (r: ReturnType<typeof replacementOf>) => r?.legs.map((l) => l.rank) ?? null;
const FADED = offer(3).resolver;

describe("replacementOf", () => {
  // Three legs won; the third's resolver fades. A lost part of another resolver sells what it sold.
  const legs = [
    part(1, 300n, 400_000n, { status: "won" }),
    part(2, 300n, 400_000n, { status: "won" }),
    part(3, 300n, 400_000n, { status: "won" }),
    part(4, 300n, 399_000n),
    offer(5, { outputAmount: "1150000" }),
  ];

  it("fills a faded leg's quote with the other legs and another resolver's part, the gas fee the one signed", () => {
    const r = replacementOf(legs, terms(), new Set([FADED]));
    expect(ranks(r)).toEqual([1, 2, 4]);
    expect(r?.received).toBe(net(400_000n) * 2n + net(399_000n) - GAS);
    expect(r?.fee).toBe(400n + 400n + 399n);
  });

  it("takes a whole bid when it pays the recipient more, and the fewer legs between equals", () => {
    expect(ranks(replacementOf(legs, terms(), new Set([FADED, offer(4).resolver])))).toEqual([5]);
    const even = [...legs.slice(0, 4), offer(5, { outputAmount: "1199000" })];
    // 400,000 + 400,000 + 399,000 is 1,199,000: the whole bid pays the same in one leg.
    expect(ranks(replacementOf(even, terms(), new Set([FADED])))).toEqual([5]);
  });

  it("composes no more legs than the faded fill's, whose gas the taker's gas fee paid for", () => {
    expect(ranks(replacementOf(legs, terms({ maxLegs: 2 }), new Set([FADED])))).toEqual([5]);
    expect(replacementOf(legs.slice(0, 4), terms({ maxLegs: 2 }), new Set([FADED]))).toBeNull();
    // A whole winner's fade (one leg) is filled by a whole bid only.
    expect(ranks(replacementOf(legs, terms({ maxLegs: 1 }), new Set([FADED])))).toEqual([5]);
  });

  it("is none when the best leaves the recipient less than minReceived", () => {
    const best = net(400_000n) * 2n + net(399_000n) - GAS;
    expect(ranks(replacementOf(legs, terms({ minReceived: best }), new Set([FADED])))).toEqual([1, 2, 4]);
    expect(replacementOf(legs, terms({ minReceived: best + 1n }), new Set([FADED]))).toBeNull();
  });

  it("never takes a steered, faded or unsigned offer, nor an excluded resolver's, whatever its case", () => {
    const others = [
      part(1, 300n, 400_000n, { status: "won" }),
      part(2, 300n, 400_000n, { status: "won" }),
      part(4, 300n, 500_000n, { status: "outside_band" }),
      part(5, 300n, 500_000n, { status: "demoted" }),
      part(6, 300n, 500_000n, { status: "faded" }),
      part(7, 300n, 500_000n, { signature: null }),
      part(8, 300n, 500_000n, { received: null }),
      part(9, 300n, 500_000n, { resolver: FADED.toUpperCase().replace("0X", "0x") }),
    ];
    expect(replacementOf(others, terms(), new Set([FADED]))).toBeNull();
    expect(ranks(replacementOf([...others, part(10, 300n, 1n)], terms(), new Set([FADED])))).toEqual([1, 2, 10]);
  });

  it("keeps the sale's fee when it is charged in the sell token, and no gas from the output when it is not there", () => {
    const whole = [offer(1, { status: "faded" }), offer(2, { outputAmount: "990000" })];
    const r = replacementOf(whole, terms({ fee: { bps: 10, side: "sell" }, gasFromOutput: 0n }), new Set());
    expect(r?.received).toBe(990_000n);
    expect(r?.fee).toBe(0n);
  });
});

describe("replacementTerms", () => {
  const quote = {
    sellAmount: "900",
    minReceived: "1000",
    buyToken: USDC,
    gasFee: { token: USDC.toLowerCase(), amount: "50000", source: "fallback" as const },
    fee: { token: USDC, amount: "1200" },
  };

  it("takes the faded fill's legs, at most the chain's, and where the fees are charged", () => {
    expect(replacementTerms(quote, 3, { maxLegs: 4, feeBps: 10 })).toEqual(terms({ minReceived: 1000n }));
    expect(replacementTerms(quote, 5, { maxLegs: 4, feeBps: 10 }).maxLegs).toBe(4);
    const inSell = { ...quote, gasFee: { ...quote.gasFee, token: CNGN }, fee: { token: CNGN, amount: "9" } };
    expect(replacementTerms(inSell, 1, { maxLegs: 4, feeBps: 10 })).toMatchObject({
      gasFromOutput: 0n,
      maxLegs: 1,
      fee: { side: "sell" },
    });
  });
});

describe("leadOf", () => {
  it("is the largest leg's, the better ranked between equals", () => {
    const legs = [part(1, 200n, 1n), part(2, 400n, 1n), part(3, 400n, 1n)] as Parameters<typeof leadOf>[0];
    expect(leadOf(legs, SELL).rank).toBe(2);
  });
});
