import { describe, expect, it } from "vitest";
import {
  availableInventory,
  bandSide,
  bandSpreadPricer,
  convert,
  fixedRatePricer,
  type PriceRequest,
  parseDecimal,
  rationalFromFloat,
  type TokenInfo,
} from "../../src/clients/resolver/pricing";
import type { InventoryEntry } from "../../src/protocol/node-frames";
import type { Band } from "../../src/schemas/quote";

const cNGN: TokenInfo = { symbol: "cNGN", address: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512", decimals: 6 };
const USDC: TokenInfo = { symbol: "USDC", address: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0", decimals: 6 };
const WETH: TokenInfo = { symbol: "WETH", address: "0x0000000000000000000000000000000000000e7e", decimals: 18 };
const band: Band = { base: "USD", quote: "NGN", mid: 1580.5, low: 1575, high: 1590, sources: 4, at: 0 };

const request = (
  sellToken: TokenInfo,
  buyToken: TokenInfo,
  sellAmount: bigint,
  b: Band | null = band,
): PriceRequest => ({
  chainId: 31337,
  sellToken,
  buyToken,
  sellAmount,
  band: b,
});

describe("parseDecimal", () => {
  it("reads decimal text as an exact rational", () => {
    expect(parseDecimal("0.000633")).toEqual({ num: 633n, den: 1_000_000n });
    expect(parseDecimal("1580")).toEqual({ num: 1580n, den: 1n });
    expect(parseDecimal(" 2.50 ")).toEqual({ num: 250n, den: 100n });
  });

  it.each(["", "-1", "1e5", ".5", "1.", "01", "abc", "1,5"])("refuses %j", (text) => {
    expect(() => parseDecimal(text)).toThrow(RangeError);
  });
});

describe("rationalFromFloat", () => {
  it("scales by 1e8 and rounds to the nearest, absorbing binary representation error", () => {
    expect(rationalFromFloat(1580.5)).toEqual({ num: 158_050_000_000n, den: 100_000_000n });
    // 1.005 * 1e8 is 100499999.99999999 in doubles; truncation would lose a unit.
    expect(rationalFromFloat(1.005)).toEqual({ num: 100_500_000n, den: 100_000_000n });
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY, 1e9, 0.000000004])("refuses %d", (value) => {
    expect(() => rationalFromFloat(value)).toThrow(RangeError);
  });
});

describe("convert", () => {
  it("scales between decimals and rounds down once", () => {
    expect(convert(1_000_000_000n, parseDecimal("0.000633"), 6, 6)).toBe(633_000n);
    expect(convert(1n, parseDecimal("0.5"), 6, 6)).toBe(0n);
    expect(convert(2_000_000n, parseDecimal("0.0003"), 6, 18)).toBe(600_000_000_000_000n);
    expect(convert(1_234_567_890_123_456_789n, parseDecimal("1"), 18, 6)).toBe(1_234_567n);
    expect(convert(1_000_000n, parseDecimal("1580.5"), 6, 6, 20)).toBe(1_577_339_000n);
  });
});

describe("fixedRatePricer", () => {
  it("applies the rate as buy-token per sell-token, in human units", () => {
    const price = fixedRatePricer({ rate: parseDecimal("0.000633") });
    expect(price(request(cNGN, USDC, 1_000_000_000n))).toEqual({ outputAmount: 633_000n });
    expect(price(request(USDC, WETH, 1_000_000n))).toEqual({ outputAmount: 633_000_000_000_000n });
  });

  it("prices the reverse direction at the reciprocal when the sold token is named", () => {
    const price = fixedRatePricer({ rate: parseDecimal("0.000625"), sellSymbol: "cngn" });
    expect(price(request(cNGN, USDC, 1_600_000_000n))).toEqual({ outputAmount: 1_000_000n });
    expect(price(request(USDC, cNGN, 1_000_000n))).toEqual({ outputAmount: 1_600_000_000n });
    expect(price(request(USDC, WETH, 1_000_000n))).toEqual({ decline: "unpriced_pair" });
  });

  it("refuses a zero rate", () => {
    expect(() => fixedRatePricer({ rate: parseDecimal("0") })).toThrow(RangeError);
  });
});

describe("bandSide", () => {
  it("finds the band's asset code in the symbol", () => {
    expect(bandSide("USDC", band)).toBe("base");
    expect(bandSide("usdt", band)).toBe("base");
    expect(bandSide("cNGN", band)).toBe("quote");
    expect(bandSide("WETH", band)).toBeNull();
    expect(bandSide("NGNUSD", band)).toBeNull();
    expect(bandSide("WETH", band, { weth: "base" })).toBe("base");
  });
});

describe("bandSpreadPricer", () => {
  const price = bandSpreadPricer({ spreadBps: 20 });

  it("gives mid naira per dollar less the spread when selling dollars", () => {
    // 1 USDC * 1580.5 * 0.998 = 1577.339 cNGN
    expect(price(request(USDC, cNGN, 1_000_000n))).toEqual({ outputAmount: 1_577_339_000n });
  });

  it("gives 1/mid dollars per naira less the spread when selling naira", () => {
    // 1580.5 cNGN / 1580.5 * 0.998 = 0.998 USDC
    expect(price(request(cNGN, USDC, 1_580_500_000n))).toEqual({ outputAmount: 998_000n });
    // 1000 cNGN / 1580.5 * 0.998 = 0.63144574... USDC, rounded down
    expect(price(request(cNGN, USDC, 1_000_000_000n))).toEqual({ outputAmount: 631_445n });
  });

  it("declines without a band, or for a pair not on both sides of it", () => {
    expect(price(request(USDC, cNGN, 1_000_000n, null))).toEqual({ decline: "no_band" });
    expect(price(request(USDC, WETH, 1_000_000n))).toEqual({ decline: "unpriced_pair" });
    expect(price(request(USDC, { ...USDC, symbol: "USDT" }, 1_000_000n))).toEqual({ decline: "unpriced_pair" });
    expect(price(request(USDC, cNGN, 1_000_000n, { ...band, mid: 0 }))).toEqual({ decline: "bad_band" });
  });

  it.each([-1, 1.5, 10_000])("refuses a spread of %d bps", (spreadBps) => {
    expect(() => bandSpreadPricer({ spreadBps })).toThrow(RangeError);
  });
});

describe("availableInventory", () => {
  const inventory: InventoryEntry[] = [
    { chainId: 31337, token: USDC.address, balance: "5000000", allowance: "3000000" },
    { chainId: 31337, token: cNGN.address, balance: "100", allowance: "900" },
    { chainId: 103, token: "949zbbi2MjwtY4Nbi8utygHdMt4ba9P4DhTHBfAChJWa", balance: "7", allowance: "7" },
  ];

  it("is the lesser of balance and allowance, matching EVM addresses in any case", () => {
    expect(availableInventory(inventory, 31337, USDC.address.toLowerCase())).toBe(3_000_000n);
    expect(availableInventory(inventory, 31337, cNGN.address)).toBe(100n);
  });

  it("is zero for a token on another chain or not listed, and Solana mints match exactly", () => {
    expect(availableInventory(inventory, 8453, USDC.address)).toBe(0n);
    expect(availableInventory(inventory, 31337, WETH.address)).toBe(0n);
    expect(availableInventory(inventory, 103, "949zbbi2MjwtY4Nbi8utygHdMt4ba9P4DhTHBfAChJWa")).toBe(7n);
    expect(availableInventory(inventory, 103, "949ZBBI2MJWTY4NBI8UTYGHDMT4BA9P4DHTHBFACHJWA")).toBe(0n);
  });
});
