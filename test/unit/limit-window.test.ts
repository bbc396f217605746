import { describe, expect, it } from "vitest";
import { type LimitAsk, midOutput, withinWindow } from "../../src/limit-orders/window";

const band = { base: "USD", quote: "NGN", mid: 1580, low: 1570, high: 1590, sources: 3, at: 0 };
/** Selling 1,580 cNGN (6 decimals) for USDC (6 decimals): the mid implies exactly 1 USDC. */
const sellNgn = (limitAmount: bigint): LimitAsk => ({
  sellAmount: 1_580_000_000n,
  limitAmount,
  sellAsset: "NGN",
  buyAsset: "USD",
  sellDecimals: 6,
  buyDecimals: 6,
});

describe("the limit window: within 150 bps of the band's mid", () => {
  it("prices the sale at the mid, either way round", () => {
    expect(midOutput(band, sellNgn(0n))).toBe(1_000_000n);
    const sellUsd: LimitAsk = { ...sellNgn(0n), sellAmount: 2_000_000n, sellAsset: "USD", buyAsset: "NGN" };
    expect(midOutput(band, sellUsd)).toBe(3_160_000_000n);
  });

  it("takes limits up to 1.5 % over the mid, and every limit under it", () => {
    expect(withinWindow(band, sellNgn(1_015_000n))).toBe(true);
    expect(withinWindow(band, sellNgn(1_015_001n))).toBe(false);
    expect(withinWindow(band, sellNgn(990_000n))).toBe(true);
  });

  it("takes nothing without a band, or with one that does not price the pair", () => {
    expect(withinWindow(null, sellNgn(1_000_000n))).toBe(false);
    expect(withinWindow(band, { ...sellNgn(1_000_000n), sellAsset: "EUR" })).toBe(false);
  });
});
