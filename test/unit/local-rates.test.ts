import { describe, expect, it } from "vitest";
import {
  DEFAULT_LOCAL_RATE,
  DEFAULT_NATIVE_RATES,
  parseNativeRate,
  parseRate,
  startLocalRateSource,
} from "../../scripts/lib/local-rates";
import { offlineRelayConfig } from "../../scripts/lib/local-stack";
import { parseConfig } from "../../src/config/load";
import { LOCAL_NATIVE_SOURCES, LOCAL_RATE_SOURCE, localConfig } from "../../src/config/local";
import { openErApi } from "../../src/oracle/sources/open-er-api";

const pair = { base: "USD", quote: "NGN" };
const ETH_USD = { base: "ETH", quote: "USD" };
const SOL_USD = { base: "SOL", quote: "USD" };

describe("the local stack's rate source", () => {
  it("serves the rate it was given in the open-er-api format, freshly dated, at the path the local configuration reads", async () => {
    // A port of its own: `npm start` may hold the configured one on this machine (docs/testing.md).
    const source = await startLocalRateSource(1612.5, 0);
    try {
      expect(new URL(source.url).pathname).toBe(new URL(LOCAL_RATE_SOURCE.url).pathname);
      const res = await fetch(source.url);
      const before = Date.now();
      const parsed = openErApi.parse(await res.json(), pair);
      expect(parsed).toMatchObject({ ok: true, reading: { value: 1612.5 } });
      if (!parsed.ok) throw new Error("not parsed");
      expect(before - (parsed.reading.at ?? 0)).toBeLessThan(2_000);
      expect((await fetch(`${new URL(source.url).origin}/other`)).status).toBe(404);
    } finally {
      await source.stop();
    }
    expect(localConfig.oracle.sources.map((s) => s.name)).toContain(LOCAL_RATE_SOURCE.name);
  });

  it("serves on a free port when asked, beside the configured one", async () => {
    const source = await startLocalRateSource(1580, 0);
    try {
      expect(source.url).not.toBe(LOCAL_RATE_SOURCE.url);
      expect(new URL(source.url).pathname).toBe(new URL(LOCAL_RATE_SOURCE.url).pathname);
      const parsed = openErApi.parse(await (await fetch(source.url)).json(), pair);
      expect(parsed).toMatchObject({ ok: true, reading: { value: 1580 } });
    } finally {
      await source.stop();
    }
  });

  it("serves each native token's dollar price on its own path, freshly dated, where the local configuration looks", async () => {
    const source = await startLocalRateSource(1580, 0, { ETH: 3120.5, SOL: 151.25 });
    try {
      for (const [native, asset, value] of [
        [ETH_USD, "ETH", 3120.5],
        [SOL_USD, "SOL", 151.25],
      ] as const) {
        const url = source.nativeUrls[asset];
        const configured = LOCAL_NATIVE_SOURCES.find((s) => s.base === asset);
        expect(new URL(url).pathname).toBe(new URL(configured?.url ?? "").pathname);
        const parsed = openErApi.parse(await (await fetch(url)).json(), native);
        expect(parsed).toMatchObject({ ok: true, reading: { value } });
        expect(parsed.ok && Date.now() - (parsed.reading.at ?? 0)).toBeLessThan(2_000);
      }
      // The NGN/USD path still answers NGN per USD, untouched by the native prices.
      expect(openErApi.parse(await (await fetch(source.url)).json(), pair)).toMatchObject({ reading: { value: 1580 } });
    } finally {
      await source.stop();
    }
    const names = localConfig.oracle.sources.map((s) => s.name);
    for (const s of LOCAL_NATIVE_SOURCES) expect(names).toContain(s.name);
  });

  it("serves the default native prices when none are given", async () => {
    const source = await startLocalRateSource(1580, 0);
    try {
      const parsed = openErApi.parse(await (await fetch(source.nativeUrls.SOL)).json(), SOL_USD);
      expect(parsed).toMatchObject({ ok: true, reading: { value: Number(DEFAULT_NATIVE_RATES.SOL) } });
    } finally {
      await source.stop();
    }
  });

  it("takes --rate as a positive number of NGN per USD", () => {
    expect(parseRate(DEFAULT_LOCAL_RATE)).toBe(1580);
    expect(parseRate("1499.75")).toBe(1499.75);
    for (const bad of ["0", "-5", "abc", "1e3", ""]) expect(() => parseRate(bad)).toThrow(/--rate/);
  });

  it("takes --eth-usd and --sol-usd as positive numbers of USD per token", () => {
    expect(parseNativeRate("ETH", DEFAULT_NATIVE_RATES.ETH)).toBe(3000);
    expect(parseNativeRate("SOL", DEFAULT_NATIVE_RATES.SOL)).toBe(150);
    expect(parseNativeRate("ETH", "2875.5")).toBe(2875.5);
    expect(() => parseNativeRate("ETH", "-1")).toThrow(/--eth-usd "-1": give USD per ETH/);
    expect(() => parseNativeRate("SOL", "lots")).toThrow(/--sol-usd "lots": give USD per SOL/);
  });
});

describe("the offline relay configuration", () => {
  it("prices the natives from the local rate source's native paths, on its port", () => {
    const config = parseConfig(offlineRelayConfig("http://127.0.0.1:8545", "http://127.0.0.1:4321/v6/latest/USD"));
    expect(config.oracle.sources.map((s) => [s.name, s.url, `${s.base}/${s.quote}`])).toEqual([
      ["local", "http://127.0.0.1:4321/v6/latest/USD", "USD/NGN"],
      ["local-eth", "http://127.0.0.1:4321/v6/latest/ETH", "ETH/USD"],
      ["local-sol", "http://127.0.0.1:4321/v6/latest/SOL", "SOL/USD"],
    ]);
    expect(config.oracle.natives).toEqual(localConfig.oracle.natives);
  });

  it("prices nothing without a rate source", () => {
    const config = parseConfig(offlineRelayConfig("http://127.0.0.1:8545"));
    expect(config.oracle).toMatchObject({ corridors: [], natives: [] });
  });
});
