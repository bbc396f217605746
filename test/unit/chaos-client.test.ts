import { describe, expect, it } from "vitest";
import { carefully } from "../../scripts/lib/chaos/careful-client";
import { memoQuoteId } from "../../scripts/lib/chaos/chain-audit";
import {
  ChaosUsageError,
  crashMoments,
  crashSchedule,
  parseChaosArgs,
  seededRandom,
} from "../../scripts/lib/chaos/options";
import { Pacer, pacing } from "../../scripts/lib/chaos/pacing";
import { type Attempt, attemptOf, retryDelay } from "../../scripts/lib/chaos/retry";
import { RelayHttpError } from "../../src/clients/taker/relay";

/** The pure parts of `npm run chaos` (docs/operations.md, "Deploys and crashes"): options, retries, pacing. */

const refused = (status: number, code: string, retryAfterS: number | null = null): Attempt => ({
  kind: "refused",
  status,
  code,
  retryAfterS,
});

describe("the chaos run's options", () => {
  it("defaults to 3 crashes in 2 minutes with 6 EVM takers, a Solana taker and a limit order", () => {
    expect(parseChaosArgs([], () => 7)).toEqual({
      crashes: 3,
      minutes: 2,
      takers: 6,
      solanaTakers: 1,
      limitOrder: true,
      wallets: 1,
      seed: 7,
      verbose: false,
      out: null,
    });
    expect(parseChaosArgs(["--crashes", "1", "--minutes", "0.5", "--no-limit-order", "--seed", "42"])).toMatchObject({
      crashes: 1,
      minutes: 0.5,
      limitOrder: false,
      seed: 42,
    });
  });

  it("refuses what it cannot run, saying why", () => {
    expect(() => parseChaosArgs(["--crashes", "-1"])).toThrow(ChaosUsageError);
    expect(() => parseChaosArgs(["--minutes", "0"])).toThrow(/--minutes 0/);
    expect(() => parseChaosArgs(["--solana-takers", "5"])).toThrow(/from 0 to 4/);
    expect(() => parseChaosArgs(["--crash", "3"])).toThrow(ChaosUsageError);
  });

  it("spreads the crashes over the run, each in the middle of its own span, the same for the same seed", () => {
    const moments = crashMoments(3, 120_000, seededRandom(1));
    expect(moments).toEqual(crashMoments(3, 120_000, seededRandom(1)));
    expect(moments).not.toEqual(crashMoments(3, 120_000, seededRandom(2)));
    for (const [i, at] of moments.entries()) {
      expect(at).toBeGreaterThanOrEqual(i * 40_000 + 8_000);
      expect(at).toBeLessThanOrEqual(i * 40_000 + 32_000);
    }
    expect(crashMoments(0, 60_000, Math.random)).toEqual([]);
  });

  it("aims every other crash, from the first, at a broadcast the keeper waits on", () => {
    expect(crashSchedule([10, 20, 30]).map((c) => c.aim)).toEqual(["broadcast", "request", "broadcast"]);
  });
});

describe("a careful client's retries", () => {
  const noJitter = () => 1;

  it("asks again after a dropped connection or a 5xx, backing off, and honours Retry-After", () => {
    const dropped: Attempt = { kind: "dropped", error: "ECONNREFUSED" };
    expect(retryDelay(dropped, 1, 0, 60_000, noJitter)).toBe(250);
    expect(retryDelay(dropped, 3, 0, 60_000, noJitter)).toBe(1_000);
    expect(retryDelay(dropped, 10, 0, 60_000, noJitter)).toBe(4_000);
    expect(retryDelay(refused(503, "not_leader", 2), 1, 0, 60_000, noJitter)).toBe(2_000);
    expect(retryDelay(refused(502, "http_502"), 1, 0, 60_000, noJitter)).toBe(250);
    expect(retryDelay(refused(429, "rate_limited", 3), 1, 0, 60_000, noJitter)).toBe(3_000);
  });

  it("stops at an answer, at a 4xx, and when the wait would pass the deadline", () => {
    expect(retryDelay({ kind: "answered", status: 202 }, 1, 0, 60_000, noJitter)).toBeNull();
    expect(retryDelay(refused(409, "quote_not_open"), 1, 0, 60_000, noJitter)).toBeNull();
    expect(retryDelay(refused(409, "quote_expired"), 1, 0, 60_000, noJitter)).toBeNull();
    expect(retryDelay(refused(503, "not_leader", 2), 1, 59_000, 60_000, noJitter)).toBeNull();
  });

  it("reads a relay's refusal, a refused connection and a timeout", () => {
    const body = { error: "not_leader", retryAfter: 2 };
    expect(attemptOf(new RelayHttpError(503, "not_leader", "restarting", body))).toEqual(refused(503, "not_leader", 2));
    const refusedConnection = new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } });
    expect(attemptOf(refusedConnection)).toEqual({ kind: "dropped", error: "ECONNREFUSED" });
    expect(attemptOf(new DOMException("timed out", "TimeoutError"))).toEqual({ kind: "dropped", error: "timeout" });
  });

  it("keeps every attempt, and the answer that ended them", async () => {
    const answers: (() => Promise<{ status: number; value: string }>)[] = [
      () => Promise.reject(new TypeError("fetch failed", { cause: { code: "UND_ERR_SOCKET" } })),
      () => Promise.reject(new RelayHttpError(503, "not_leader", "restarting", { retryAfter: 0 })),
      () => Promise.resolve({ status: 200, value: "x_first" }),
    ];
    const careful = await carefully(() => (answers.shift() as () => Promise<{ status: number; value: string }>)(), {
      deadline: Date.now() + 10_000,
      random: () => 0,
    });
    expect(careful.value).toBe("x_first");
    expect(careful.attempts).toEqual([
      { kind: "dropped", error: "UND_ERR_SOCKET" },
      refused(503, "not_leader", 0),
      { kind: "answered", status: 200 },
    ]);
  });
});

describe("pacing under the published limits", () => {
  it("spaces turns by the interval, whoever takes them", async () => {
    let now = 1_000;
    const pacer = new Pacer(100, () => now);
    await pacer.turn();
    const second = pacer.turn();
    now += 100;
    await second;
    expect(pacing({ quotesPerSecond: 10, takerQuotesPer10s: 100, takerSubmissionsPer10s: 20 })).toMatchObject({
      submissionIntervalMs: 625,
    });
  });
});

describe("a Solana swap's memo in an address's history", () => {
  it("names the quote the way validators write memos, and nothing else", () => {
    expect(memoQuoteId("[34] q_0123456789abcdef0123456789abcdef")).toBe("q_0123456789abcdef0123456789abcdef");
    expect(memoQuoteId("[11] airdrop 1")).toBeNull();
    expect(memoQuoteId(null)).toBeNull();
  });
});
