import { describe, expect, it } from "vitest";
import { NO_TOTALS } from "../../src/db/resolver-days";
import { NO_STANDING, type Standing, StandingCache, standingOf } from "../../src/resolvers/standing";

const MINUTE = 60_000;
const full = (n: number) => ({
  ...NO_TOTALS,
  asked: n,
  answered: n,
  submitted: n,
  settled: n,
  connectedMs: n * MINUTE,
  freshMs: n * MINUTE,
});

describe("standingOf", () => {
  it("keeps the reliability of the resolvers that have one, by lowercase address", () => {
    const standing = standingOf(
      ["0xDEAD"],
      new Map([
        ["0xAA", { ...full(20), answered: 19 }],
        ["0xbb", full(19)],
      ]),
    );
    expect(standing.demoted).toEqual(new Set(["0xdead"]));
    expect(standing.reliability).toEqual(new Map([["0xaa", 0.95]]));
  });
});

describe("StandingCache", () => {
  const reads = () => {
    const calls: number[] = [];
    const standing: Standing = { demoted: new Set(["0xa"]), reliability: new Map([["0xb", 0.9]]) };
    const cache = new StandingCache(async (now) => {
      calls.push(now);
      return standing;
    });
    return { calls, cache, standing };
  };

  it("holds nothing, without waiting, until its first read is in; then the standing read", async () => {
    const { calls, cache, standing } = reads();
    expect(cache.held(1_000)).toBeNull();
    expect(calls).toEqual([1_000]);
    await cache.get(1_001);
    expect(cache.held(1_002)).toBe(standing);
    expect(calls).toEqual([1_000]);
  });

  it("reads once per 10 s", async () => {
    const { calls, cache, standing } = reads();
    expect(await cache.get(1_000)).toBe(standing);
    await cache.get(11_000);
    expect(calls).toEqual([1_000]);
    await cache.get(11_001);
    expect(calls).toEqual([1_000, 11_001]);
  });

  it("serves the last standing while a read past 10 s runs behind it", async () => {
    let release: (s: Standing) => void = () => {};
    const first: Standing = { demoted: new Set(["0xa"]), reliability: new Map() };
    const second: Standing = { demoted: new Set(["0xb"]), reliability: new Map() };
    let calls = 0;
    const cache = new StandingCache(async () => {
      calls++;
      if (calls === 1) return first;
      return new Promise<Standing>((resolve) => {
        release = resolve;
      });
    });
    expect(await cache.get(0)).toBe(first);
    expect(await cache.get(10_001)).toBe(first);
    expect(await cache.get(10_002)).toBe(first);
    expect(calls).toBe(2);
    release(second);
    await new Promise((r) => setTimeout(r, 0));
    expect(await cache.get(10_003)).toBe(second);
  });

  it("reads afresh after forget, and waits for that read", async () => {
    const { calls, cache } = reads();
    await cache.get(1_000);
    cache.forget();
    await cache.get(1_001);
    expect(calls).toEqual([1_000, 1_001]);
  });

  it("counts a failed read as nobody demoted and nobody's reliability known, until the next read", async () => {
    let fail = true;
    const cache = new StandingCache(async () => {
      if (fail) throw new Error("D1 down");
      return { demoted: new Set(["0xa"]), reliability: new Map() };
    });
    expect(await cache.get(0)).toBe(NO_STANDING);
    fail = false;
    expect(await cache.get(5_000)).toBe(NO_STANDING);
    // Past 10 s the read runs behind the last standing, which serves until it lands.
    expect(await cache.get(10_001)).toBe(NO_STANDING);
    await new Promise((r) => setTimeout(r, 0));
    expect((await cache.get(10_002)).demoted).toEqual(new Set(["0xa"]));
  });
});
