import { describe, expect, it } from "vitest";
import { DEFAULT_LOCAL_RATE, parseRate, startLocalRateSource } from "../../scripts/lib/local-rates";
import { LOCAL_RATE_SOURCE, localConfig } from "../../src/config/local";
import { openErApi } from "../../src/oracle/sources/open-er-api";

const pair = { base: "USD", quote: "NGN" };

describe("the local stack's rate source", () => {
  it("serves the rate it was given in the open-er-api format, freshly dated, where the local configuration looks", async () => {
    const source = await startLocalRateSource(1612.5);
    try {
      const res = await fetch(LOCAL_RATE_SOURCE.url);
      const before = Date.now();
      const parsed = openErApi.parse(await res.json(), pair);
      expect(parsed).toMatchObject({ ok: true, reading: { value: 1612.5 } });
      if (!parsed.ok) throw new Error("not parsed");
      expect(before - (parsed.reading.at ?? 0)).toBeLessThan(2_000);
      expect((await fetch(`${source.url}/other`)).status).toBe(404);
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

  it("takes --rate as a positive number of NGN per USD", () => {
    expect(parseRate(DEFAULT_LOCAL_RATE)).toBe(1580);
    expect(parseRate("1499.75")).toBe(1499.75);
    for (const bad of ["0", "-5", "abc", "1e3", ""]) expect(() => parseRate(bad)).toThrow(/--rate/);
  });
});
