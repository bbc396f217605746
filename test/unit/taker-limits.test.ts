import { describe, expect, it } from "vitest";
import type { QuoteOutcome } from "../../src/auction/quote-outcome";
import { refuse } from "../../src/errors";
import { LEASE_SLACK_MS, TakerLimits } from "../../src/quotes/taker-limits";

const limits = { rfqWindowMs: 1_000, maxInFlight: 2, perPeriod: 100, periodMs: 10_000 };
const lapse = limits.rfqWindowMs + LEASE_SLACK_MS;

describe("a taker's quote requests in flight", () => {
  it("holds up to the limit, and frees a place on release", () => {
    const taker = new TakerLimits();
    expect(taker.admit("a", 0, limits)).toEqual({ ok: true });
    expect(taker.admit("b", 0, limits)).toEqual({ ok: true });
    expect(taker.admit("c", 0, limits)).toEqual({ ok: false, limit: "in_flight", held: 2 });
    taker.release("a");
    expect(taker.admit("c", 0, limits)).toEqual({ ok: true });
  });

  it("lets a lease that was never released lapse after an auction window and the slack", () => {
    const taker = new TakerLimits();
    const one = { ...limits, maxInFlight: 1 };
    taker.admit("lost", 0, one);
    expect(taker.admit("next", lapse - 1, one)).toEqual({ ok: false, limit: "in_flight", held: 1 });
    expect(taker.admit("next", lapse, one)).toEqual({ ok: true });
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

describe("a quote request while admitted", () => {
  const noOffers = refuse(404, "no_offers", "nobody");

  it("runs the auction holding a place, and gives it back when the auction ends, whatever its end", async () => {
    const taker = new TakerLimits();
    const one = { ...limits, maxInFlight: 1 };
    let heldDuring: unknown = null;
    const outcome = await taker.whileAdmitted("a", 0, one, async () => {
      heldDuring = taker.admit("probe", 0, one);
      return noOffers;
    });
    expect(outcome).toEqual(noOffers);
    expect(heldDuring).toEqual({ ok: false, limit: "in_flight", held: 1 });
    await expect(
      taker.whileAdmitted("b", 1, one, () => Promise.reject(new Error("the corridor threw"))),
    ).rejects.toThrow("the corridor threw");
    expect(taker.admit("c", 2, one)).toEqual({ ok: true });
  });

  it("refuses over a limit with its 429 and Retry-After, without asking the corridor", async () => {
    const taker = new TakerLimits();
    let asked = 0;
    const auction = async (): Promise<QuoteOutcome> => {
      asked++;
      return noOffers;
    };
    taker.admit("held", 0, { ...limits, maxInFlight: 1 });
    expect(await taker.whileAdmitted("x", 0, { ...limits, maxInFlight: 1 }, auction)).toMatchObject({
      kind: "refused",
      status: 429,
      code: "too_many_rfqs",
      extras: { retryAfter: 1 },
    });
    expect(await taker.whileAdmitted("y", 0, { ...limits, perPeriod: 1 }, auction)).toMatchObject({
      kind: "refused",
      status: 429,
      code: "rate_limited",
      extras: { retryAfter: 10 },
    });
    expect(asked).toBe(0);
  });
});
