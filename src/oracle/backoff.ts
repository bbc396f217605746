import type { PollOutcome, RateSource } from "./poll";

/**
 * A source that keeps failing is asked less often: after its n-th failure in a row it rests
 * 2^(n-1) − 1 rounds (0, 1, 3, 7 … up to 30 rounds, five minutes), and one answer puts it back in every
 * round. An offline relay then makes (and logs) a failed request per source every few minutes, not
 * every 10 s. A resting source stays in `unavailable` with the reason of its last failure.
 */
export const MAX_REST_ROUNDS = 30;

export interface SourceHealth {
  failures: number;
  /** Rounds still to skip. */
  rest: number;
  reason: string;
}

/** Source name → its run of failures; a source that answers has no entry. */
export type HealthBySource = Record<string, SourceHealth>;

export function restRounds(failures: number): number {
  return Math.min(2 ** Math.min(failures - 1, 30) - 1, MAX_REST_ROUNDS);
}

/** Which sources this round asks, and which rest (each with the outcome it stands on). */
export function planRound(
  sources: readonly RateSource[],
  health: HealthBySource,
): { ask: RateSource[]; resting: PollOutcome[] } {
  const ask: RateSource[] = [];
  const resting: PollOutcome[] = [];
  for (const s of sources) {
    const h = health[s.name];
    if (h && h.rest > 0) resting.push({ name: s.name, ok: false, reason: `${h.reason} (resting)` });
    else ask.push(s);
  }
  return { ask, resting };
}

/** The health after a round: asked sources reset or fail again, resting ones count a round down. */
export function afterRound(
  health: HealthBySource,
  asked: readonly PollOutcome[],
  resting: readonly PollOutcome[],
): HealthBySource {
  const next: HealthBySource = {};
  for (const r of resting) {
    const h = health[r.name];
    if (h) next[r.name] = { ...h, rest: h.rest - 1 };
  }
  for (const o of asked) {
    if (o.ok) continue;
    const failures = (health[o.name]?.failures ?? 0) + 1;
    next[o.name] = { failures, rest: restRounds(failures), reason: o.reason };
  }
  return next;
}
