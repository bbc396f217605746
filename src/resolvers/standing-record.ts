import type { StrikeHistoryRow, UncountedFailure } from "../db";
import { type Day, NO_TOTALS, type Totals } from "../db";
import { Badge, type Resolver, type ResolverStanding } from "../schemas";
import { blameOf } from "../states";
import { fillMeasure, replyLatency, windowDays } from "./reliability";

/**
 * A resolver's record with what stands behind it (docs/reliability.md, "A resolver's record"): its
 * strikes, the failures of its wins that were not its fault, and the window's days, each with the rates
 * and reply latency its counters give. Every day of the window is present, zero where nothing was counted.
 */
export function standingRecord(
  record: Resolver,
  facts: {
    strikes: readonly StrikeHistoryRow[];
    failures: readonly UncountedFailure[];
    days: readonly Day[];
    totals: Totals;
    windowMs: number;
    now: number;
    /** Its firm bids against its own ladders over the window, and whether that earns `honest_levels`. */
    levels: ResolverStanding["levels"];
    honestLevels: boolean;
  },
): ResolverStanding {
  const byDay = new Map(facts.days.map((d) => [d.day, d]));
  const rate = (hits: number, samples: number) => (samples === 0 ? null : Math.min(1, hits / samples));
  const badges = Badge.options.filter(
    (b) => record.badges.includes(b) || (b === "honest_levels" && facts.honestLevels),
  );
  return {
    ...record,
    badges,
    levels: facts.levels,
    strikes: facts.strikes.map((s) => ({
      at: s.at,
      event: s.event,
      quoteId: s.quoteId,
      reason: s.why,
      blame: "resolver" as const,
      demotedUntil: s.demotedUntil,
    })),
    notCounted: facts.failures.flatMap((f) => {
      const blame = blameOf(f.reason);
      if (blame !== "taker" && blame !== "relay") return [];
      return [{ at: f.at, executionId: f.executionId, quoteId: f.quoteId, status: f.status, reason: f.reason, blame }];
    }),
    days: windowDays(facts.now).map((day) => {
      const d = byDay.get(day) ?? { ...NO_TOTALS, day };
      return {
        day,
        asked: d.asked,
        answered: d.answered,
        won: d.won,
        submitted: d.submitted,
        settled: d.settled,
        failed: d.failed,
        responseRate: rate(d.answered, d.asked),
        fillRate: fillMeasure(d).rate,
        replyLatency: replyLatency(d, facts.windowMs),
      };
    }),
    replyLatency: replyLatency(facts.totals, facts.windowMs),
  };
}
