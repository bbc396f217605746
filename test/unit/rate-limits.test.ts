import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { RATE_LIMIT_PERIOD_SECONDS } from "../../src/http/rate-limits";

describe("rate_limited's Retry-After", () => {
  it("is the period of every rate limiter wrangler.toml binds", () => {
    const toml = readFileSync(new URL("../../wrangler.toml", import.meta.url), "utf8");
    const periods = [...toml.matchAll(/simple\s*=\s*\{[^}]*period\s*=\s*(\d+)/g)].map((m) => Number(m[1]));
    expect(periods.length).toBeGreaterThanOrEqual(1);
    for (const period of periods) expect(period).toBe(RATE_LIMIT_PERIOD_SECONDS);
  });
});
