import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { withD1Latency } from "../../src/db/simulated-latency";

describe("the benchmarks' D1 latency knob", () => {
  it("leaves the env alone when unset", () => {
    expect(withD1Latency({ ...env, SIMULATED_D1_LATENCY_MS: undefined }).DB).toBe(env.DB);
  });

  it("delays every statement and batch by the given time, and still runs them", async () => {
    const { DB } = withD1Latency({ ...env, SIMULATED_D1_LATENCY_MS: "40" });
    let started = performance.now();
    expect(await DB.prepare("SELECT ?1 + 1 AS n").bind(1).first<{ n: number }>()).toEqual({ n: 2 });
    expect(performance.now() - started).toBeGreaterThanOrEqual(39);
    started = performance.now();
    const [a, b] = await DB.batch([DB.prepare("SELECT 1 AS n"), DB.prepare("SELECT ?1 AS n").bind(2)]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(39);
    expect([a?.results, b?.results]).toEqual([[{ n: 1 }], [{ n: 2 }]]);
  });
});
