import { describe, expect, it } from "vitest";
import { TakerLimits } from "../../src/quotes/taker-limits";

const limits = { ttlMs: 1_000, maxInFlight: 2, perPeriod: 100, periodMs: 10_000 };

describe("a taker's quote requests in flight", () => {
  it("holds up to the limit, and frees a place on release", () => {
    const taker = new TakerLimits();
    expect(taker.admit("a", 0, limits)).toEqual({ ok: true });
    expect(taker.admit("b", 0, limits)).toEqual({ ok: true });
    expect(taker.admit("c", 0, limits)).toEqual({ ok: false, limit: "in_flight", held: 2 });
    taker.release("a");
    expect(taker.admit("c", 0, limits)).toEqual({ ok: true });
  });

  it("lets a lease that was never released lapse after its time", () => {
    const taker = new TakerLimits();
    taker.admit("lost", 0, { ...limits, maxInFlight: 1 });
    expect(taker.admit("next", 999, { ...limits, maxInFlight: 1 })).toEqual({
      ok: false,
      limit: "in_flight",
      held: 1,
    });
    expect(taker.admit("next", 1_000, { ...limits, maxInFlight: 1 })).toEqual({ ok: true });
  });
});

describe("a taker's quote rate", () => {
  const rate = { ...limits, maxInFlight: 10, perPeriod: 3 };

  it("admits perPeriod requests in any period, and the next once the oldest is a period old", () => {
    const taker = new TakerLimits();
    for (const [i, at] of [0, 100, 200].entries()) {
      expect(taker.admit(`r${i}`, at, rate)).toEqual({ ok: true });
      taker.release(`r${i}`);
    }
    expect(taker.admit("r3", 9_999, rate)).toEqual({ ok: false, limit: "rate" });
    expect(taker.admit("r3", 10_000, rate)).toEqual({ ok: true });
    expect(taker.admit("r4", 10_050, rate)).toEqual({ ok: false, limit: "rate" });
  });

  it("does not count a refused request, so a taker that keeps asking is admitted once the period has passed", () => {
    const taker = new TakerLimits();
    for (let i = 0; i < 3; i++) taker.admit(`r${i}`, 0, rate);
    for (let at = 1; at < 10_000; at += 500) expect(taker.admit("again", at, rate).ok).toBe(false);
    expect(taker.admit("again", 10_000, { ...rate, maxInFlight: 100 })).toEqual({ ok: true });
  });

  it("counts a request refused for its places against neither limit", () => {
    const taker = new TakerLimits();
    const one = { ...rate, maxInFlight: 1 };
    expect(taker.admit("a", 0, one)).toEqual({ ok: true });
    expect(taker.admit("b", 1, one)).toEqual({ ok: false, limit: "in_flight", held: 1 });
    taker.release("a");
    expect(taker.admit("c", 2, one)).toEqual({ ok: true });
    taker.release("c");
    expect(taker.admit("d", 3, one)).toEqual({ ok: true });
    taker.release("d");
    expect(taker.admit("e", 4, one)).toEqual({ ok: false, limit: "rate" });
  });
});
