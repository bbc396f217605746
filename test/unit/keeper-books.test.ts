import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nativeToToken, tokenToNative } from "../../src/costs/gas-fee";
import type { SettledFillBooks } from "../../src/db/keeper-books";
import { describeFeeDifference, feeDifferences } from "../../src/ops/fee-truth";
import { fillsLeft, keeperBooks } from "../../src/ops/keeper-books";

/** docs/settlement.md, "The keeper's books": bigint maths, each fill's charge converted at its own price. */

const USDC = "0xUSDC";
const CNGN = "0xcngn";
const decimals = (token: string) => ({ "0xusdc": 6, "0xcngn": 6 })[token.toLowerCase()] ?? null;
const fill = (spent: string, token: string, amount: string, nativePrice: number | null): SettledFillBooks => ({
  spent,
  charged: { token, amount },
  nativePrice,
});

describe("tokenToNative", () => {
  it("converts a charged amount into native base units at whole tokens per whole native unit, rounded down", () => {
    expect(tokenToNative(700_000n, 3500, 18, 6)).toBe(200_000_000_000_000n);
    expect(tokenToNative(1_000_000n, 3000.5, 18, 6)).toBe(333_277_787_035_494n);
    expect(tokenToNative(310_000n, 150, 9, 6)).toBe(2_066_666n);
    expect(tokenToNative(2_000_000_000n, 5_500_000.25, 18, 6)).toBe(363_636_347_107_438n);
  });

  it("gives back at least the native cost a priced fee was rounded up from", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 20n }),
        fc.double({ min: 0.001, max: 1e9, noNaN: true }),
        fc.integer({ min: 0, max: 18 }),
        (cost, rate, tokenDecimals) => {
          const fee = nativeToToken(cost, rate, 18, tokenDecimals);
          expect(tokenToNative(fee, rate, 18, tokenDecimals)).toBeGreaterThanOrEqual(cost);
        },
      ),
    );
  });
});

describe("keeperBooks", () => {
  it("sums spent, converts each priced charge at its own price, and takes the margin", () => {
    const books = keeperBooks(
      [
        fill("200000000000000", USDC, "700000", 3500),
        fill("300000000000000", USDC, "1000000", 3000.5),
        fill("400000000000000", CNGN, "2000000000", 5_500_000.25),
      ],
      decimals,
      18,
    );
    const charged = 200_000_000_000_000n + 333_277_787_035_494n + 363_636_347_107_438n;
    expect(books).toEqual({
      fills: 3,
      spent: 900_000_000_000_000n,
      charged,
      margin: charged - 900_000_000_000_000n,
      unpriced: 0,
      medianSpent: 300_000_000_000_000n,
    });
  });

  it("counts a fallback fee, or one in a token the chain no longer names, as unpriced: spent, not charged", () => {
    const books = keeperBooks(
      [fill("100", USDC, "5000", null), fill("300", "0xgone", "5000", 2), fill("200", USDC, "2", 1)],
      decimals,
      6,
    );
    expect(books).toMatchObject({ fills: 3, spent: 600n, charged: 2n, margin: -598n, unpriced: 2, medianSpent: 200n });
  });

  it("keeps Solana's lamports (9 decimals) and takes an even median rounded up", () => {
    const books = keeperBooks([fill("2044280", USDC, "310000", 150), fill("5001", USDC, "1000", 150)], decimals, 9);
    expect(books).toMatchObject({ spent: 2_049_281n, charged: 2_066_666n + 6_666n, medianSpent: 1_024_641n });
    expect(books.margin).toBe(2_066_666n + 6_666n - 2_049_281n);
  });

  it("is empty without fills, and skips a spend it cannot read", () => {
    expect(keeperBooks([], decimals, 18)).toEqual({
      fills: 0,
      spent: 0n,
      charged: 0n,
      margin: 0n,
      unpriced: 0,
      medianSpent: null,
    });
    expect(keeperBooks([fill("1.5", USDC, "1", 1)], decimals, 18).fills).toBe(0);
  });
});

describe("fillsLeft", () => {
  it("is the balance over the median cost, rounded down; null without a cost to divide by", () => {
    expect(fillsLeft(10n ** 18n, 2n * 10n ** 14n)).toBe(5000);
    expect(fillsLeft(399n, 200n)).toBe(1);
    expect(fillsLeft(0n, 200n)).toBe(0);
    expect(fillsLeft(10n ** 18n, null)).toBeNull();
    expect(fillsLeft(10n ** 18n, 0n)).toBeNull();
  });
});

describe("feeDifferences", () => {
  it("names each token whose on-chain bps differ from fee.bps", () => {
    const onChain = [
      { symbol: "cNGN", bps: 10 },
      { symbol: "USDC", bps: 25 },
    ];
    const differences = feeDifferences(10, onChain);
    expect(differences).toEqual([{ token: "USDC", configured: 10, onChain: 25 }]);
    expect(differences.map(describeFeeDifference)).toEqual(["fee.bps 10 differs from the FeeController's 25 for USDC"]);
    expect(feeDifferences(25, [{ symbol: "USDC", bps: 25 }])).toEqual([]);
  });
});
