import type { Band } from "../schemas/quote";
import { computeBand, distanceBps, median, type Named, rejectOutliers } from "./band";
import type { PollOutcome, RateSource } from "./poll";
import { pairKey, type Reading, type SourceRate } from "./types";

/** One recompute: what every source said and the band of every pair. Stored whole in the OracleDO. */
export interface Snapshot {
  /** When the round finished, unix ms; every age and band `at` is relative to it. */
  at: number;
  /** By pair key (`USD/NGN`); a pair without a usable source has no entry. */
  bands: Record<string, Band>;
  /** Sources that answered with a plausible reading, stale ones included so their age shows. */
  sources: SourceRate[];
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
 * outliers of each pair, and takes median, low and high of what is left.
 */
export function buildSnapshot(
  sources: readonly RateSource[],
  outcomes: readonly PollOutcome[],
  outlierBps: number,
  now: number,
): Snapshot {
  const reasons: Record<string, string> = {};
  const rates: SourceRate[] = [];
  const candidates = new Map<string, Named[]>();
  sources.forEach((source, i) => {
    const outcome = outcomes[i];
    if (!outcome?.ok) {
      reasons[source.name] = outcome?.reason ?? "not polled";
      return;
    }
    const { reading } = outcome;
    const wrong = implausible(reading, now);
    if (wrong) {
      reasons[source.name] = wrong;
      return;
    }
    const ageMs = Math.max(0, now - (reading.at ?? now));
    const ageSeconds = Math.floor(ageMs / 1000);
    rates.push({ name: source.name, value: reading.value, bid: reading.bid, ask: reading.ask, ageSeconds });
    if (ageMs > source.maxAgeMs) {
      reasons[source.name] = `stale: ${ageSeconds} s old`;
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
    sources: rates,
    unavailable: sources.filter((s) => s.name in reasons).map((s) => s.name),
    reasons,
  };
}
