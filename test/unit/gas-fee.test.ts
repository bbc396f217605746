import { describe, expect, it } from "vitest";
import { evmGasCost } from "../../src/chains/evm/costs";
import { solanaFillCost } from "../../src/chains/solana/costs";
import {
  CALLDATA_SPREAD_GAS,
  chargedGasFee,
  fillGasOf,
  MAX_INPUT_AGE_MS,
  medianOf,
  nativeToToken,
  rateFraction,
} from "../../src/costs/gas-fee";

describe("rateFraction", () => {
  it("spells a band rate as an exact fraction of bigints", () => {
    expect(rateFraction(3000.5)).toEqual({ num: 300050000000n, den: 100000000n });
    expect(rateFraction(4_740_000)).toEqual({ num: 474000000000n, den: 100000n });
    expect(rateFraction(1.5e-7)).toEqual({ num: 150000000000n, den: 10n ** 18n });
    expect(rateFraction(2e21)).toEqual({ num: 2n * 10n ** 21n, den: 1n });
    expect(() => rateFraction(0)).toThrow(RangeError);
    expect(() => rateFraction(Number.NaN)).toThrow(RangeError);
  });
});

describe("pricing a fill", () => {
  it("prices EVM gas at twice the base fee plus the tip, in the charged token, rounded up", () => {
    // 150,000 gas at (2 × 1 gwei + 1 gwei) = 4.5e14 wei = 0.00045 ETH; at 3,000 USDC/ETH, 1.35 USDC.
    const wei = evmGasCost(150_000n, 1_000_000_000n, 1_000_000_000n);
    expect(wei).toBe(450_000_000_000_000n);
    expect(nativeToToken(wei, 3000, 18, 6)).toBe(1_350_000n);
    // Ten times the base fee: about ten times the fee.
    expect(nativeToToken(evmGasCost(150_000n, 10_000_000_000n, 1_000_000_000n), 3000, 18, 6)).toBe(9_450_000n);
    // Never rounded down to zero: one wei is one base unit.
    expect(nativeToToken(1n, 3000, 18, 6)).toBe(1n);
  });

  it("prices a Solana fill's signatures, compute and created accounts in lamports", () => {
    const lamports = solanaFillCost({
      signatures: 3,
      lamportsPerSignature: 5_000n,
      computeUnitLimit: 200_000,
      computeUnitPrice: 1_001n,
      accountsCreated: 1,
      rentPerAccount: 2_039_280n,
    });
    // 15,000 + ceil(200,000 × 1,001 / 10^6) = 201 + 2,039,280.
    expect(lamports).toBe(15_000n + 201n + 2_039_280n);
    // At 150 USDC per SOL: 308,172.15 base units of USDC, rounded up.
    expect(nativeToToken(lamports, 150, 9, 6)).toBe(308_173n);
  });

  it("takes the median of settled fills' gas, rounded up", () => {
    expect(medianOf([])).toBeNull();
    expect(medianOf([5n, 1n, 3n])).toBe(3n);
    expect(medianOf([4n, 1n, 3n, 2n])).toBe(3n);
  });

  it("prices a fill at its kind's median and the calldata spread, so a fill a calldata byte dearer is covered", () => {
    expect(fillGasOf([])).toBeNull();
    // Three permit fills a zero byte apart (12 gas): the next, as dear as the dearest, is still covered.
    const recent = [250_568n, 250_580n, 250_568n];
    expect(fillGasOf(recent)).toBe(250_568n + CALLDATA_SPREAD_GAS);
    expect(fillGasOf(recent)).toBeGreaterThanOrEqual(250_580n);
    expect(CALLDATA_SPREAD_GAS).toBe(768n);
  });

  it("falls back when an input is missing or older than 60 s, and says so", () => {
    const now = 1_000_000;
    const inputs = {
      cost: { native: 450_000_000_000_000n, at: now - 1_000 },
      price: { rate: 3000, at: now - 1_000 },
      nativeDecimals: 18,
      tokenDecimals: 6,
    };
    expect(chargedGasFee(inputs, 50_000n, now)).toEqual({ amount: 1_350_000n, source: "priced" });
    const stale = now - MAX_INPUT_AGE_MS - 1;
    expect(chargedGasFee({ ...inputs, price: { rate: 3000, at: stale } }, 50_000n, now)).toEqual({
      amount: 50_000n,
      source: "fallback",
    });
    expect(chargedGasFee({ ...inputs, cost: { native: 1n, at: stale } }, 50_000n, now).source).toBe("fallback");
    expect(chargedGasFee({ ...inputs, cost: null }, 50_000n, now).source).toBe("fallback");
    expect(chargedGasFee({ ...inputs, price: null }, 50_000n, now).source).toBe("fallback");
  });
});
