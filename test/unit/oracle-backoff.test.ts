import { describe, expect, it } from "vitest";
import { afterRound, type HealthBySource, MAX_REST_ROUNDS, planRound, restRounds } from "../../src/oracle/backoff";
import type { PollOutcome, RateSource } from "../../src/oracle/poll";

const source = (name: string): RateSource => ({
  name,
  url: `http://127.0.0.1:9/${name}`,
  pair: { base: "USD", quote: "NGN" },
  maxAgeMs: 60_000,
  parse: () => ({ ok: false, reason: "unused" }),
});
const down = (name: string): PollOutcome => ({ name, ok: false, reason: "fetch failed" });

/** Runs `rounds` rounds in which every asked source fails; returns in which rounds `name` was asked. */
function askedIn(rounds: number, name: string): number[] {
  let health: HealthBySource = {};
  const asked: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const plan = planRound([source(name)], health);
    if (plan.ask.length) asked.push(round);
    health = afterRound(
      health,
      plan.ask.map((s) => down(s.name)),
      plan.resting,
    );
  }
  return asked;
}

describe("a failing rate source", () => {
  it("rests 0, 1, 3, 7 … rounds after each failure in a row, at most five minutes of rounds", () => {
    expect([1, 2, 3, 4, 5].map(restRounds)).toEqual([0, 1, 3, 7, 15]);
    expect(restRounds(6)).toBe(MAX_REST_ROUNDS);
    expect(restRounds(60)).toBe(MAX_REST_ROUNDS);
    expect(askedIn(20, "luno")).toEqual([0, 1, 3, 7, 15]);
  });

  it("stays unavailable while it rests, with the reason of its last failure", () => {
    const health = afterRound({}, [down("luno")], []);
    const again = afterRound(health, [down("luno")], []);
    const plan = planRound([source("luno"), source("quidax")], again);
    expect(plan.ask.map((s) => s.name)).toEqual(["quidax"]);
    expect(plan.resting).toEqual([{ name: "luno", ok: false, reason: "fetch failed (resting)" }]);
  });

  it("is asked every round again once it answers", () => {
    let health = afterRound({}, [down("luno")], []);
    health = afterRound(health, [down("luno")], []);
    expect(health.luno?.rest).toBe(1);
    health = afterRound(health, [], planRound([source("luno")], health).resting);
    expect(planRound([source("luno")], health).ask).toHaveLength(1);
    const reading = { value: 1580, bid: null, ask: null, at: 0 };
    health = afterRound(health, [{ name: "luno", ok: true, reading, receivedAt: 0 }], []);
    expect(health).toEqual({});
  });
});
