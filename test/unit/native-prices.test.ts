import { describe, expect, it } from "vitest";
import { sameAddressOf } from "../../src/chains/addresses";
import { localConfig } from "../../src/config/local";
import { chainTokenAssets, tokenBandAsset } from "../../src/oracle/band-corridors";
import { nativeBandKeys, nativePricesFor } from "../../src/oracle/native-bands";
import { bandsUsed, nativePrices, routeBetween } from "../../src/oracle/native-prices";
import { listedBands } from "../../src/oracle/rate-bands";
import type { Band } from "../../src/schemas/quote";

const NOW = 1_763_726_400_000;

function band(base: string, quote: string, mid: number, at = NOW): Band {
  return { base, quote, mid, low: mid, high: mid, sources: 3, at };
}

const bandsOf = (...list: Band[]): Record<string, Band> =>
  Object.fromEntries(list.map((b) => [`${b.base}/${b.quote}`, b]));

const evmSame = (a: string, b: string) => sameAddressOf("evm", a, b);
const ETH = { chainId: 31337, asset: "ETH" };
const usdc = { token: "0xUsdc", asset: "USD" };
const cngn = { token: "0xCngn", asset: "NGN" };

describe("native prices", () => {
  it("price a USD token at the direct band's mid, dated by it", () => {
    const bands = bandsOf(band("ETH", "USD", 3012.3, NOW - 4_000));
    expect(nativePrices(ETH, [usdc], bands, NOW)).toStrictEqual({
      chainId: 31337,
      asset: "ETH",
      tokens: [{ token: "0xUsdc", rate: 3012.3, at: NOW - 4_000 }],
    });
  });

  it("cross an NGN token through USD, dated by the older of the two bands", () => {
    const bands = bandsOf(band("ETH", "USD", 3000, NOW - 2_000), band("USD", "NGN", 1454.5, NOW - 9_000));
    expect(nativePrices(ETH, [cngn, usdc], bands, NOW).tokens).toStrictEqual([
      { token: "0xCngn", rate: 4_363_500, at: NOW - 9_000 },
      { token: "0xUsdc", rate: 3000, at: NOW - 2_000 },
    ]);
  });

  it("invert a band that prices the other way round, on either leg", () => {
    // USD per ETH from an ETH-per-USD band; NGN per ETH through an NGN/USD band read backwards.
    const direct = bandsOf(band("USD", "ETH", 0.0004));
    expect(nativePrices(ETH, [usdc], direct, NOW).tokens).toStrictEqual([{ token: "0xUsdc", rate: 2500, at: NOW }]);
    const cross = bandsOf(band("ETH", "USD", 3000), band("NGN", "USD", 0.000625));
    expect(nativePrices(ETH, [cngn], cross, NOW).tokens[0]?.rate).toBe(4_800_000);
    const bothInverted = bandsOf(band("USD", "SOL", 0.005), band("NGN", "USD", 0.000625));
    expect(nativePrices({ chainId: 103, asset: "SOL" }, [cngn], bothInverted, NOW).tokens[0]?.rate).toBe(320_000);
  });

  it("leave out a token whose asset no band reaches, directly or through one asset", () => {
    const bands = bandsOf(band("ETH", "USD", 3000));
    expect(nativePrices(ETH, [cngn, usdc], bands, NOW).tokens.map((t) => t.token)).toEqual(["0xUsdc"]);
    // Two intermediate assets (ETH → EUR → USD → NGN) are too many.
    const far = bandsOf(band("ETH", "EUR", 2800), band("EUR", "USD", 1.08), band("USD", "NGN", 1450));
    expect(nativePrices(ETH, [cngn], far, NOW).tokens).toEqual([]);
    expect(nativePrices(ETH, [usdc], {}, NOW).tokens).toEqual([]);
  });

  it("price a token that tracks the native asset itself at 1, dated by the round", () => {
    const weth = { token: "0xWeth", asset: "ETH" };
    expect(nativePrices(ETH, [weth], {}, NOW).tokens).toStrictEqual([{ token: "0xWeth", rate: 1, at: NOW }]);
  });

  it("keep twelve significant digits of a cross, without float noise", () => {
    const bands = bandsOf(band("ETH", "USD", 3012.345), band("USD", "NGN", 1447.66));
    expect(nativePrices(ETH, [cngn], bands, NOW).tokens[0]?.rate).toBe(4_360_851.3627);
  });
});

describe("routes between assets", () => {
  const pairs = [
    { base: "ETH", quote: "USD" },
    { base: "USD", quote: "NGN" },
    { base: "ETH", quote: "NGN" },
  ];

  it("take the direct pair over a cross, and a cross through the first linked asset otherwise", () => {
    expect(routeBetween("ETH", "NGN", pairs)).toStrictEqual([{ pair: pairs[2], inverted: false }]);
    expect(routeBetween("NGN", "ETH", pairs.slice(0, 2))).toStrictEqual([
      { pair: pairs[1], inverted: true },
      { pair: pairs[0], inverted: true },
    ]);
    expect(routeBetween("ETH", "ETH", [])).toEqual([]);
    expect(routeBetween("SOL", "USD", pairs)).toBeNull();
  });

  it("name the bands the native's tokens use, each once", () => {
    const bands = bandsOf(band("ETH", "USD", 3000), band("USD", "NGN", 1450), band("SOL", "USD", 150));
    expect(bandsUsed("ETH", [cngn, usdc], bands)).toEqual(["ETH/USD", "USD/NGN"]);
    expect(bandsUsed("ETH", [{ token: "0xGhs", asset: "GHS" }], bands)).toEqual([]);
  });
});

describe("the band asset of a chain's token", () => {
  it("comes from oracle.corridors, in the chain's token order, addresses as configured", () => {
    const evm = localConfig.chains[0];
    const address = (symbol: string) => evm?.tokens.find((t) => t.symbol === symbol)?.address as string;
    expect(chainTokenAssets(localConfig, 31337)).toStrictEqual([
      { token: address("cNGN"), asset: "NGN" },
      { token: address("USDC"), asset: "USD" },
    ]);
    expect(tokenBandAsset(localConfig, 31337, address("USDC").toLowerCase(), evmSame)).toBe("USD");
    expect(tokenBandAsset(localConfig, 31337, "0x0000000000000000000000000000000000000001", evmSame)).toBeNull();
  });

  it("leaves out a token no corridor names, and a chain without corridors has none", () => {
    const config = structuredClone(localConfig);
    config.oracle.corridors = config.oracle.corridors.filter((c) => c.chainId !== 103);
    expect(chainTokenAssets(config, 103)).toEqual([]);
    expect(chainTokenAssets(config, 1)).toEqual([]);
  });
});

describe("the configured natives against a round", () => {
  const bands = bandsOf(band("USD", "NGN", 1450), band("ETH", "USD", 3000), band("SOL", "USD", 150));

  it("price each chain's native in its tokens, and nothing for a chain with no native", () => {
    expect(nativePricesFor(localConfig, 31337, { at: NOW, bands })?.tokens.map((t) => t.rate)).toEqual([
      4_350_000, 3000,
    ]);
    expect(nativePricesFor(localConfig, 103, { at: NOW, bands })?.asset).toBe("SOL");
    expect(nativePricesFor(localConfig, 1, { at: NOW, bands })).toBeNull();
    expect(nativeBandKeys(localConfig, bands)).toEqual(["ETH/USD", "USD/NGN", "SOL/USD"]);
  });

  it("list the corridors' bands, then each native band no corridor has, once, with corridor null", () => {
    const listed = listedBands(localConfig, bands);
    expect(listed.map((b) => [b.corridor === null ? null : b.corridor.split(":")[0], `${b.base}/${b.quote}`])).toEqual([
      ["31337", "USD/NGN"],
      ["103", "USD/NGN"],
      [null, "ETH/USD"],
      [null, "SOL/USD"],
    ]);
    // Without the ETH band the natives list what they still use; an unused band is not listed.
    const { "ETH/USD": _, ...rest } = bands;
    const extra = { ...rest, ...bandsOf(band("EUR", "USD", 1.08)) };
    expect(listedBands(localConfig, extra).map((b) => `${b.base}/${b.quote}`)).toEqual([
      "USD/NGN",
      "USD/NGN",
      "SOL/USD",
    ]);
  });
});
