import { describe, expect, it } from "vitest";
import {
  afterRead,
  afterSubscribe,
  isActive,
  isDue,
  isFresh,
  nextRunAt,
  noActivity,
  prune,
  READ_KEEPALIVE_MS,
  RECOMPUTE_INTERVAL_MS,
  SUBSCRIPTION_TTL_MS,
  subscribers,
} from "../../src/oracle/activity";

const T = 1_700_000_000_000;

describe("who keeps the oracle running", () => {
  it("is nobody at first", () => {
    expect(isActive(noActivity(), T)).toBe(false);
  });

  it("is a read, for a few minutes", () => {
    const a = afterRead(noActivity(), T);
    expect(isActive(a, T + READ_KEEPALIVE_MS - 1)).toBe(true);
    expect(isActive(a, T + READ_KEEPALIVE_MS)).toBe(false);
  });

  it("does not rewrite the keep-alive for reads under one interval apart", () => {
    const a = afterRead(noActivity(), T);
    expect(afterRead(a, T + RECOMPUTE_INTERVAL_MS - 1)).toBe(a);
    expect(afterRead(a, T + RECOMPUTE_INTERVAL_MS).readUntil).toBe(T + RECOMPUTE_INTERVAL_MS + READ_KEEPALIVE_MS);
  });

  it("is a subscribed corridor until its subscription lapses, unless renewed", () => {
    const a = afterSubscribe(noActivity(), "31337:0xa:0xb", T);
    expect(subscribers(a, T + SUBSCRIPTION_TTL_MS - 1)).toEqual(["31337:0xa:0xb"]);
    expect(isActive(a, T + SUBSCRIPTION_TTL_MS)).toBe(false);
    const renewed = afterSubscribe(a, "31337:0xa:0xb", T + 60_000);
    expect(isActive(renewed, T + SUBSCRIPTION_TTL_MS + 59_999)).toBe(true);
  });

  it("forgets lapsed subscriptions and keeps live ones", () => {
    const a = afterSubscribe(afterSubscribe(noActivity(), "old", T), "new", T + 90_000);
    expect(Object.keys(prune(a, T + SUBSCRIPTION_TTL_MS).subscriptions)).toEqual(["new"]);
    const live = afterSubscribe(noActivity(), "x", T);
    expect(prune(live, T)).toBe(live);
  });
});

describe("when to compute", () => {
  it("answers reads from a round under one interval old, and recomputes after", () => {
    expect(isFresh(null, T)).toBe(false);
    expect(isFresh(T, T + RECOMPUTE_INTERVAL_MS - 1)).toBe(true);
    expect(isFresh(T, T + RECOMPUTE_INTERVAL_MS)).toBe(false);
  });

  it("lets an alarm skip a round a read has just done, and run one that is nearly due", () => {
    expect(isDue(null, T)).toBe(true);
    expect(isDue(T, T + 2_000)).toBe(false);
    expect(isDue(T, T + RECOMPUTE_INTERVAL_MS - 500)).toBe(true);
  });

  it("schedules the next round one interval after the last, never in the past", () => {
    expect(nextRunAt(T, T + 2_000)).toBe(T + RECOMPUTE_INTERVAL_MS);
    expect(nextRunAt(T, T + 60_000)).toBeGreaterThan(T + 60_000);
    expect(nextRunAt(null, T)).toBe(T);
  });
});
