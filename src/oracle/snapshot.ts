import type { Band } from "../schemas";
import { computeBand, distanceBps, median, type Named, rejectOutliers } from "./band";
import type { PollOutcome, RateSource } from "./poll";
import { pairKey, type Reading, type SourceValue } from "./types";

/** One recompute: what every source said and the band of every pair. Stored whole in the OracleDO. */
export interface Snapshot {
  /** When the round finished, unix ms: every band's `at`. */
  at: number;
  /** By pair key (`USD/NGN`); a pair without a usable source has no entry. */
  bands: Record<string, Band>;
  /**
   * Every source that has said something plausible, in configuration order: this round's figure (stale
   * and outlying ones included, so their age shows), or for a source that failed this round its last
   * plausible one, kept from the rounds before while it fails (it is in `unavailable` too).
   */
  sources: SourceValue[];
  /** Sources left out of every band, in configuration order. */
  unavailable: string[];
  /** Why each unavailable source was left out, for the logs. */
  reasons: Record<string, string>;
}

/** A source clock this far ahead of ours means a misread timestamp, not a fresh figure. */
const MAX_CLOCK_SKEW_MS = 60_000;

function implausible(r: Reading, now: number): string | null {
  if (!Number.isFinite(r.value) || r.value <= 0) return "implausible: rate is not a positive number";
  if (r.bid !== null && r.ask !== null && (!(r.bid > 0) || r.bid > r.ask)) return "implausible: crossed or empty book";
  if (r.at !== null && r.at > now + MAX_CLOCK_SKEW_MS) return "implausible: timestamp in the future";
  return null;
}

/**
 * Turns one round of polls into the bands: drops failed, implausible and stale readings, then the
 * outliers of each pair, and takes median, low and high of what is left. A source that failed keeps
 * its last plausible figure from `previous` in `sources`, never in a band. A figure is dated by the
 * source's own time, or, when the source gives none, by when the relay received it.
 */
export function buildSnapshot(
  sources: readonly RateSource[],
  outcomes: readonly PollOutcome[],
  outlierBps: number,
  now: number,
  previous: Snapshot | null = null,
): Snapshot {
  const reasons: Record<string, string> = {};
  const figures: SourceValue[] = [];
  const candidates = new Map<string, Named[]>();
  const lastGood = new Map((previous?.sources ?? []).map((s) => [s.name, s]));
  sources.forEach((source, i) => {
    const leftOut = (why: string) => {
      reasons[source.name] = why;
      const kept = lastGood.get(source.name);
      if (kept) figures.push(kept);
    };
    const outcome = outcomes[i];
    if (!outcome?.ok) {
      leftOut(outcome?.reason ?? "not polled");
      return;
    }
    const { reading } = outcome;
    const wrong = implausible(reading, now);
    if (wrong) {
      leftOut(wrong);
      return;
    }
    const at = reading.at ?? outcome.receivedAt;
    figures.push({ name: source.name, value: reading.value, bid: reading.bid, ask: reading.ask, at });
    const ageMs = Math.max(0, now - at);
    if (ageMs > source.maxAgeMs) {
      reasons[source.name] = `stale: ${Math.floor(ageMs / 1000)} s old`;
      return;
    }
    const key = pairKey(source.pair);
    candidates.set(key, [...(candidates.get(key) ?? []), { name: source.name, value: reading.value }]);
  });

  const bands: Record<string, Band> = {};
  for (const [key, values] of candidates) {
    const { kept, outliers } = rejectOutliers(values, outlierBps);
    if (outliers.length > 0) {
      const m = median(values.map((v) => v.value));
      for (const o of outliers) reasons[o.name] = `outlier: ${Math.round(distanceBps(o.value, m))} bps from the median`;
    }
    const [base, quote] = key.split("/") as [string, string];
    const band = computeBand(
      kept.map((v) => v.value),
      { base, quote },
      now,
    );
    if (band) bands[key] = band;
  }

  return {
    at: now,
    bands,
    sources: figures,
    unavailable: sources.filter((s) => s.name in reasons).map((s) => s.name),
    reasons,
  };
}

/**
 * A round as storage holds it, or null when there is none or it was stored in an older shape (figures
 * without their time), which the next round replaces rather than carrying forward.
 */
export function storedSnapshot(value: Snapshot | undefined): Snapshot | null {
  if (!value || !Array.isArray(value.sources)) return null;
  return value.sources.every((s) => typeof s.at === "number") ? value : null;
}
