import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { type AdapterName, publicRateSources } from "../../src/oracle/sources";
import { recordedRates } from "../support/oracle-fixtures";
import { corridors, expectedBand, failing, healthyNative } from "../support/oracle-helpers";

const app = createApp();
const get = async () => {
  const started = Date.now();
  const res = await app.request("/v1/rates", {}, env);
  return { res, started, finished: Date.now() };
};

interface Body {
  bands: Record<string, unknown>[];
  sources: { name: string; value: number; bid: number | null; ask: number | null; ageSeconds: number }[];
  unavailable: string[];
}

describe("GET /v1/rates", () => {
  it("answers every corridor's band, every source that answered, and the failing ones, field for field", async () => {
    const { res, started, finished } = await get();
    expect(res.status).toBe(200);
    const body = (await res.json()) as Body;
    expect(Object.keys(body).sort()).toEqual(["bands", "sources", "unavailable"]);

    expect(body.bands).toHaveLength(2);
    const mapped = corridors();
    body.bands.forEach((band, i) => {
      expect(band).toStrictEqual({ corridor: mapped[i]?.key, ...expectedBand(), at: expect.any(Number) });
      expect(band.at).toBeGreaterThanOrEqual(started);
      expect(band.at).toBeLessThanOrEqual(finished);
    });

    // The healthy five, then the two failing ones that still said something (the stale and the
    // outlier), then the native prices' six.
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
    const age = (name: string) => body.sources.find((s) => s.name === name)?.ageSeconds ?? -1;
    for (const name of ["quidax", "luno", "remitano", "open-er-api"]) expect(age(name)).toBeLessThanOrEqual(2);
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
