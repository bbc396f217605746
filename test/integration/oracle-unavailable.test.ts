import { env, runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { OracleSourceConfig } from "../../src/config/oracle";
import { pollSources, rateSources } from "../../src/oracle/poll";
import { buildSnapshot } from "../../src/oracle/snapshot";
import { type AdapterName, publicRateSources } from "../../src/oracle/sources";
import { TEST_TIMEOUT_MS } from "../support/oracle-config";
import { ageLastRound, failing, healthy, oracleNamed, snapshotOf } from "../support/oracle-helpers";

const USD_NGN = { base: "USD", quote: "NGN" } as const;
const daily = new Set<AdapterName>(["open-er-api", "currency-api"]);

/** One source served by the fixture server with the given behaviour; its age limit is its format's. */
function served(name: string, adapter: AdapterName, path: string): OracleSourceConfig {
  return { name, adapter, url: `${env.ORACLE_FIXTURES_URL}/${path}/${adapter}`, ...USD_NGN };
}

/** One real round, fetched from inside workerd: three healthy sources and the one under test. */
async function roundWith(source: OracleSourceConfig) {
  const sources = rateSources(
    [served("quidax", "quidax", "ok"), served("luno", "luno", "ok"), served("er", "open-er-api", "ok"), source],
    60,
  );
  const outcomes = await pollSources(sources, TEST_TIMEOUT_MS);
  return buildSnapshot(sources, outcomes, 1_000, Date.now());
}

describe("a failing source is left out and listed in unavailable", () => {
  it.each([
    ["answers 500", "status/500", "HTTP 500"],
    ["answers 429", "status/429", "HTTP 429"],
    ["never answers within the timeout", "slow", `no answer within ${TEST_TIMEOUT_MS} ms`],
    ["answers a page that is not JSON", "garbled", "malformed: not JSON"],
  ])("when it %s", async (_, path, reason) => {
    const round = await roundWith(served("bad", "luno", path));
    expect(round.unavailable).toEqual(["bad"]);
    expect(round.reasons.bad).toBe(reason);
    expect(round.sources.map((s) => s.name)).toEqual(["quidax", "luno", "er"]);
    expect(round.bands["USD/NGN"]?.sources).toBe(3);
  });

  it.each(["quidax", "luno", "open-er-api"] as const)(
    "when %s answers 200 with its own error body",
    async (adapter) => {
      const round = await roundWith(served("bad", adapter, "refused"));
      expect(round.unavailable).toEqual(["bad"]);
      expect(round.reasons.bad).toMatch(/^(malformed|source error)/);
    },
  );

  it.each(["quidax", "luno", "open-er-api", "currency-api"] as const)(
    "when %s's own timestamp is past its age limit, still showing its figure and age",
    async (adapter) => {
      const round = await roundWith(served("old", adapter, "stale"));
      expect(round.unavailable).toEqual(["old"]);
      expect(round.reasons.old).toMatch(/^stale: \d+ s old$/);
      const shown = round.sources.find((s) => s.name === "old");
      expect(round.at - (shown?.at ?? round.at)).toBeGreaterThan((daily.has(adapter) ? 172_800 : 60) * 1000);
      expect(round.bands["USD/NGN"]?.sources).toBe(3);
    },
  );

  it.each(["open-er-api", "currency-api"] as const)(
    "not when %s, a daily reference rate, is a day old: its format is held to two days, configured or not",
    async (adapter) => {
      const round = await roundWith(served("daily", adapter, "aged/86400"));
      expect(round.unavailable).toEqual([]);
      expect(round.bands["USD/NGN"]?.sources).toBe(4);
      const shown = round.sources.find((s) => s.name === "daily");
      expect(round.at - (shown?.at ?? round.at)).toBeGreaterThanOrEqual(86_400_000);
    },
  );

  it("when it is an outlier against the others", async () => {
    const round = await roundWith(served("wild", "remitano", "outlier"));
    expect(round.unavailable).toEqual(["wild"]);
    expect(round.reasons.wild).toMatch(/^outlier/);
    expect(round.bands["USD/NGN"]?.high).toBeLessThan(1_500);
  });

  it("and with every source failing there is no band, and every source is listed", async () => {
    const sources = rateSources(
      [served("a", "quidax", "status/503"), served("b", "luno", "slow"), served("c", "remitano", "garbled")],
      60,
    );
    const round = buildSnapshot(sources, await pollSources(sources, TEST_TIMEOUT_MS), 1_000, Date.now());
    expect(round.bands).toStrictEqual({});
    expect(round.unavailable).toEqual(["a", "b", "c"]);
    expect(round.sources).toEqual([]);
  });

  it("through the oracle, each failure's reason is kept for the logs, and the band comes from the rest", async () => {
    const oracle = oracleNamed("unavailable-reasons");
    const rates = await oracle.rates();
    expect(rates.unavailable).toEqual(failing);
    const corridorBands = rates.bands.filter((b) => b.corridor !== null);
    expect(corridorBands.length).toBeGreaterThan(0);
    expect(corridorBands.every((b) => b.sources === healthy.length)).toBe(true);
    expect((await snapshotOf(oracle))?.reasons).toStrictEqual({
      "quidax-down": "HTTP 500",
      "luno-slow": `no answer within ${TEST_TIMEOUT_MS} ms`,
      "remitano-garbled": "malformed: not JSON",
      "luno-stale": expect.stringMatching(/^stale: \d+ s old$/),
      "quidax-outlier": expect.stringMatching(/^outlier: \d+ bps from the median$/),
    });
    expect(publicRateSources.every((s) => !rates.unavailable.includes(s.name))).toBe(true);
  });

  it("through the oracle, a source that keeps failing rests and stays unavailable with its last reason", async () => {
    const oracle = oracleNamed("unavailable-resting");
    await oracle.rates();
    // Its second failure in a row: it rests the next round (src/oracle/backoff.ts).
    await ageLastRound(oracle);
    expect(await runDurableObjectAlarm(oracle)).toBe(true);
    expect((await snapshotOf(oracle))?.reasons["quidax-down"]).toBe("HTTP 500");
    await ageLastRound(oracle);
    expect(await runDurableObjectAlarm(oracle)).toBe(true);
    const round = await snapshotOf(oracle);
    expect(round?.reasons["quidax-down"]).toBe("HTTP 500 (resting)");
    expect(round?.unavailable).toEqual(expect.arrayContaining(failing));
    expect(round?.bands["USD/NGN"]?.sources).toBe(healthy.length);
  });
});
