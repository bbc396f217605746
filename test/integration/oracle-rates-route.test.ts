import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { loadConfig } from "../../src/config/load";
import { type AdapterName, publicNativeSources, publicRateSources } from "../../src/oracle/sources";
import { type NativeAdapter, recordedRates, recordedSolRates } from "../support/oracle-fixtures";
import {
  activityOf,
  corridors,
  expectedBand,
  expectedNativeBand,
  failing,
  healthyNative,
  oracleNamed,
} from "../support/oracle-helpers";

const app = createApp();
const get = async () => {
  const started = Date.now();
  const res = await app.request("/v1/rates", {}, env);
  return { res, started, finished: Date.now() };
};

interface Body {
  bands: (Record<string, unknown> & { corridor: string | null })[];
  sources: { name: string; value: number; bid: number | null; ask: number | null; ageSeconds: number }[];
  unavailable: string[];
}

describe("GET /v1/rates", () => {
  it("answers every corridor's band, every source that answered, and the failing ones, field for field", async () => {
    const { res, started, finished } = await get();
    expect(res.status).toBe(200);
    const body = (await res.json()) as Body;
    expect(Object.keys(body).sort()).toEqual(["bands", "sources", "unavailable"]);

    // The two corridors' USD/NGN bands, then the natives' ETH/USD and SOL/USD, which are no corridor's.
    expect(body.bands).toHaveLength(4);
    const mapped = corridors();
    const expected = [
      ...mapped.map((c) => ({ corridor: c.key, ...expectedBand() })),
      { corridor: null, ...expectedNativeBand("ETH") },
      { corridor: null, ...expectedNativeBand("SOL") },
    ];
    body.bands.forEach((band, i) => {
      expect(band).toStrictEqual({ ...expected[i], at: expect.any(Number) });
      expect(band.at).toBeGreaterThanOrEqual(started);
      expect(band.at).toBeLessThanOrEqual(finished);
    });

    // The healthy five, then the two failing ones that still said something (the stale and the
    // outlier), then the natives' six.
    expect(body.sources.map((s) => s.name)).toEqual([
      ...publicRateSources.map((s) => s.name),
      "luno-stale",
      "quidax-outlier",
      ...healthyNative,
    ]);
    for (const s of publicRateSources) {
      const shown = body.sources.find((x) => x.name === s.name);
      const { bid, ask, value } = recordedRates[s.adapter as AdapterName];
      expect(shown).toStrictEqual({ name: s.name, value, bid, ask, ageSeconds: expect.any(Number) });
    }
    for (const [asset, rates] of [
      ["ETH", recordedRates],
      ["SOL", recordedSolRates],
    ] as const) {
      for (const s of publicNativeSources(asset)) {
        const shown = body.sources.find((x) => x.name === s.name);
        const { bid, ask, value } = rates[s.adapter as NativeAdapter];
        expect(shown).toStrictEqual({ name: s.name, value, bid, ask, ageSeconds: expect.any(Number) });
      }
    }
    const age = (name: string) => body.sources.find((s) => s.name === name)?.ageSeconds ?? -1;
    for (const name of ["quidax", "luno", "remitano", "open-er-api", ...healthyNative]) {
      expect(age(name)).toBeLessThanOrEqual(2);
    }
    // currency-api dates its rates by day: its age is the time since midnight UTC.
    const sinceMidnight = (finished % 86_400_000) / 1000;
    expect(Math.abs(age("currency-api") - sinceMidnight)).toBeLessThanOrEqual(3);
    expect(age("luno-stale")).toBeGreaterThanOrEqual(600);
    expect(body.sources.find((s) => s.name === "quidax-outlier")?.value).toBeCloseTo(
      recordedRates.quidax.value * 1.5,
      3,
    );

    expect(body.unavailable).toEqual(failing);
  });

  it("answers a second read inside 10 s from the same round", async () => {
    const first = (await (await get()).res.json()) as Body;
    const second = (await (await get()).res.json()) as Body;
    expect(second.bands[0]?.at).toBe(first.bands[0]?.at);
  });

  it("is described in the OpenAPI document", async () => {
    const doc = (await (await app.request("/v1/openapi.json", {}, env)).json()) as {
      paths: Record<string, { get?: { responses: Record<string, unknown> } }>;
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    expect(doc.paths["/v1/rates"]?.get?.responses).toHaveProperty("200");
    expect(Object.keys(doc.components.schemas.RateSource?.properties ?? {}).sort()).toEqual([
      "ageSeconds",
      "ask",
      "bid",
      "name",
      "value",
    ]);
    const corridor = doc.components.schemas.RateBand?.properties.corridor as { description: string };
    expect(JSON.stringify(corridor)).toMatch(/null/);
    expect(corridor.description).toMatch(/Null for a band that is no corridor's/);
    expect(Object.keys(doc.components.schemas.RateBand?.properties ?? {}).sort()).toEqual([
      "at",
      "base",
      "corridor",
      "high",
      "low",
      "mid",
      "quote",
      "sources",
    ]);
  });
});

describe("native prices", () => {
  const config = () => loadConfig(env.RELAY_CONFIG);
  const address = (chainId: number, symbol: string) =>
    config()
      .chains.find((c) => c.chainId === chainId)
      ?.tokens.find((t) => t.symbol === symbol)?.address;
  const cross = (a: number, b: number) => Number((a * b).toPrecision(12));

  it("price ETH in USDC and cNGN on 31337, from ETH/USD and crossed with USD/NGN, dated by the round", async () => {
    const oracle = oracleNamed("native-prices-evm");
    const started = Date.now();
    const prices = await oracle.nativePrices(31337);
    const eth = expectedNativeBand("ETH").mid ?? 0;
    const ngn = expectedBand().mid ?? 0;
    expect(prices).toStrictEqual({
      chainId: 31337,
      asset: "ETH",
      // In the chain's token order: cNGN, then USDC; addresses as configured.
      tokens: [
        { token: address(31337, "cNGN"), rate: cross(eth, ngn), at: expect.any(Number) },
        { token: address(31337, "USDC"), rate: eth, at: expect.any(Number) },
      ],
    });
    for (const t of prices?.tokens ?? []) expect(t.at).toBeGreaterThanOrEqual(started);
    // A read, like band(): it keeps the oracle polling.
    expect((await activityOf(oracle))?.readUntil).toBeGreaterThan(started);
  });

  it("price SOL on 103 the same way, and nothing for a chain with no native configured", async () => {
    const oracle = oracleNamed("native-prices-solana");
    const prices = await oracle.nativePrices(103);
    const sol = expectedNativeBand("SOL").mid ?? 0;
    expect(prices?.asset).toBe("SOL");
    expect(prices?.tokens.map((t) => [t.token, t.rate])).toEqual([
      [address(103, "USDC"), sol],
      [address(103, "cNGN"), cross(sol, expectedBand().mid ?? 0)],
    ]);
    expect(await oracle.nativePrices(1)).toBeNull();
  });
});
