import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "../../src/config/load";
import { localConfig } from "../../src/config/local";
import { configRecord } from "../../src/config/record";
import { oracleCorridor, oracleCorridors } from "../../src/oracle/band-corridors";
import { publicRateSources } from "../../src/oracle/sources";

type Mutable = Record<string, unknown> & {
  oracle: Record<string, unknown> & {
    sources: Record<string, unknown>[];
    corridors: Record<string, unknown>[];
    natives: Record<string, unknown>[];
  };
};
const clone = () => structuredClone(localConfig) as unknown as Mutable;

describe("oracle configuration", () => {
  it("defaults to the public sources, 60 s, a 3 s timeout and no corridors when absent", () => {
    const { oracle, ...rest } = clone();
    void oracle;
    const config = parseConfig(rest);
    expect(config.oracle.sources.map((s) => s.url)).toEqual(publicRateSources.map((s) => s.url));
    expect(config.oracle.sources.every((s) => s.base === "USD" && s.quote === "NGN")).toBe(true);
    expect(config.oracle).toMatchObject({
      timeoutMs: 3_000,
      maxAgeSeconds: 60,
      outlierBps: 1_000,
      corridors: [],
      natives: [],
    });
  });

  it("fills a source's and a corridor's asset pair with USD/NGN", () => {
    const config = clone();
    config.oracle.sources = [{ name: "q", adapter: "quidax", url: "http://127.0.0.1:1/q" }];
    config.oracle.corridors = [{ chainId: 31337, base: "USDC", quote: "cNGN" }];
    config.oracle.natives = [];
    const parsed = parseConfig(config).oracle;
    expect(parsed.sources[0]).toMatchObject({ base: "USD", quote: "NGN" });
    expect(parsed.corridors[0]).toMatchObject({ baseAsset: "USD", quoteAsset: "NGN" });
  });

  it.each([
    [
      "oracle.sources.0.adapter",
      (c: Mutable) => Object.assign(c.oracle.sources[0] as object, { adapter: "bloomberg" }),
    ],
    [
      "oracle.sources.0.url",
      (c: Mutable) => Object.assign(c.oracle.sources[0] as object, { url: "ftp://rates.test/x" }),
    ],
    ["oracle.sources.1.name", (c: Mutable) => Object.assign(c.oracle.sources[1] as object, { name: "quidax" })],
    ["oracle.sources.0.name", (c: Mutable) => Object.assign(c.oracle.sources[0] as object, { name: "Has Spaces" })],
    ["oracle.sources.0.quote", (c: Mutable) => Object.assign(c.oracle.sources[0] as object, { quote: "naira" })],
    ["oracle.sources", (c: Mutable) => Object.assign(c.oracle, { sources: [] })],
    ["oracle.timeoutMs", (c: Mutable) => Object.assign(c.oracle, { timeoutMs: 10_000 })],
    ["oracle.maxAgeSeconds", (c: Mutable) => Object.assign(c.oracle, { maxAgeSeconds: 0 })],
    ["oracle.outlierBps", (c: Mutable) => Object.assign(c.oracle, { outlierBps: 0 })],
    ["oracle.corridors.0.chainId", (c: Mutable) => Object.assign(c.oracle.corridors[0] as object, { chainId: 1 })],
    ["oracle.corridors.0.base", (c: Mutable) => Object.assign(c.oracle.corridors[0] as object, { base: "USDT" })],
    ["oracle.corridors.0.quote", (c: Mutable) => Object.assign(c.oracle.corridors[0] as object, { quote: "USDC" })],
    ["oracle.corridors.1.quote", (c: Mutable) => Object.assign(c.oracle.corridors[1] as object, { chainId: 31337 })],
    [
      "oracle.corridors.0.baseAsset",
      (c: Mutable) => Object.assign(c.oracle.corridors[0] as object, { quoteAsset: "GHS" }),
    ],
    [
      "oracle.corridors.0.quoteAsset",
      (c: Mutable) => Object.assign(c.oracle.corridors[0] as object, { quoteAsset: "USD" }),
    ],
  ])("refuses a bad %s, naming it", (field, spoil) => {
    const config = clone();
    spoil(config);
    expect(() => parseConfig(config)).toThrow(ConfigError);
    expect(() => parseConfig(config)).toThrow(new RegExp(`${field.replaceAll(".", "\\.")}: `));
  });

  it("refuses a Solana corridor the chain does not pair", () => {
    const config = clone();
    const solana = (config.chains as Record<string, unknown>[])[1] as {
      tokens: Record<string, unknown>[];
      pairs: unknown;
    };
    solana.tokens.push({
      ...solana.tokens[0],
      symbol: "USDT",
      address: "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB",
    });
    config.oracle.corridors = [{ chainId: 103, base: "USDT", quote: "cNGN" }];
    expect(() => parseConfig(config)).toThrow(/oracle\.corridors\.0\.quote: chain 103 does not quote USDT\/cNGN/);
  });

  it("prices the local chains' natives, ETH and SOL, from public and local sources", () => {
    const { oracle } = parseConfig(localConfig);
    expect(oracle.natives).toEqual([
      { chainId: 31337, asset: "ETH" },
      { chainId: 103, asset: "SOL" },
    ]);
    const named = (base: string) =>
      oracle.sources.filter((s) => s.base === base && s.quote === "USD").map((s) => s.name);
    expect(named("ETH")).toEqual(["coinbase-eth", "kraken-eth", "bitstamp-eth", "local-eth"]);
    expect(named("SOL")).toEqual(["coinbase-sol", "kraken-sol", "bitstamp-sol", "local-sol"]);
  });

  it("accepts a native priced through one asset, or by a source read the other way round", () => {
    const config = clone();
    // A source of ETH per USD, read backwards, prices ETH in USD (and through USD in NGN).
    config.oracle.sources = [
      ...config.oracle.sources.filter((s) => s.base !== "ETH"),
      { name: "eth-inverse", adapter: "open-er-api", url: "http://127.0.0.1:1/usd", base: "USD", quote: "ETH" },
    ];
    expect(() => parseConfig(config)).not.toThrow();
    // A USD/EUR and an EUR/ETH source: ETH reaches USD through EUR, but NGN would need two steps.
    config.oracle.sources = [
      ...config.oracle.sources.filter((s) => s.quote !== "ETH"),
      { name: "eur", adapter: "open-er-api", url: "http://127.0.0.1:1/eur", base: "USD", quote: "EUR" },
      { name: "eth-eur", adapter: "open-er-api", url: "http://127.0.0.1:1/eth", base: "ETH", quote: "EUR" },
    ];
    expect(() => parseConfig(config)).toThrow(/oracle\.natives\.0\.asset: no source pair prices ETH in NGN/);
    expect(() => parseConfig(config)).not.toThrow(/prices ETH in USD/);
  });

  it.each([
    ["oracle.natives.0.chainId", (c: Mutable) => Object.assign(c.oracle.natives[0] as object, { chainId: 1 })],
    ["oracle.natives.1.chainId", (c: Mutable) => Object.assign(c.oracle.natives[1] as object, { chainId: 31337 })],
    ["oracle.natives.0.asset", (c: Mutable) => Object.assign(c.oracle.natives[0] as object, { asset: "eth" })],
    ["oracle.natives.0.asset", (c: Mutable) => Object.assign(c.oracle.natives[0] as object, { asset: "BTC" })],
    [
      "oracle.natives.1.chainId",
      (c: Mutable) => Object.assign(c.oracle, { corridors: c.oracle.corridors.filter((x) => x.chainId !== 103) }),
    ],
    [
      "oracle.natives.1.asset",
      (c: Mutable) => Object.assign(c.oracle, { sources: c.oracle.sources.filter((s) => s.base !== "SOL") }),
    ],
  ])("refuses a bad %s, naming it", (field, spoil) => {
    const config = clone();
    spoil(config);
    expect(() => parseConfig(config)).toThrow(new RegExp(`${field.replaceAll(".", "\\.")}: `));
  });

  it("keeps the oracle out of the published record", () => {
    expect(JSON.stringify(configRecord(parseConfig(localConfig)))).not.toMatch(/oracle|quidax|er-api/);
  });
});

describe("oracle corridors", () => {
  it("maps each configured corridor's key to its asset pair and tokens", () => {
    const corridors = oracleCorridors(localConfig);
    const evm = localConfig.chains[0];
    const usdc = evm?.tokens.find((t) => t.symbol === "USDC")?.address as string;
    const cngn = evm?.tokens.find((t) => t.symbol === "cNGN")?.address as string;
    expect(corridors).toHaveLength(2);
    expect(corridors[0]).toStrictEqual({
      key: `31337:${[usdc, cngn]
        .map((a) => a.toLowerCase())
        .sort()
        .join(":")}`,
      chainId: 31337,
      baseToken: usdc,
      quoteToken: cngn,
      pair: { base: "USD", quote: "NGN" },
    });
    expect(oracleCorridor(localConfig, corridors[1]?.key as string)?.chainId).toBe(103);
    expect(oracleCorridor(localConfig, "31337:0x1:0x2")).toBeNull();
  });
});
