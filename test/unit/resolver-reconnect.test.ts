import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { backoffDelay, Reconnect } from "../../src/clients/resolver/reconnect";

describe("a corridor's reconnect schedule", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const backoff = { initialMs: 100, maxMs: 1_000 };
  const random = () => 0.5;

  it("reconnects after each delay of the backoff, counting attempts until the relay welcomes the node", () => {
    const reconnect = new Reconnect(random, backoff);
    const connect = vi.fn();
    expect(reconnect.schedule(connect)).toEqual({ attempt: 1, delayMs: backoffDelay(0, random, backoff) });
    vi.advanceTimersByTime(backoffDelay(0, random, backoff) - 1);
    expect(connect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(connect).toHaveBeenCalledOnce();
    expect(reconnect.schedule(connect)).toEqual({ attempt: 2, delayMs: backoffDelay(1, random, backoff) });
    expect(reconnect.attempts).toBe(2);
    reconnect.reset();
    expect(reconnect.attempts).toBe(0);
    expect(reconnect.schedule(connect)).toEqual({ attempt: 1, delayMs: backoffDelay(0, random, backoff) });
  });

  it("does not reconnect once cancelled", () => {
    const reconnect = new Reconnect(random, backoff);
    const connect = vi.fn();
    reconnect.schedule(connect);
    reconnect.cancel();
    vi.advanceTimersByTime(backoff.maxMs);
    expect(connect).not.toHaveBeenCalled();
  });
});
