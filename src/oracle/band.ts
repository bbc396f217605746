import type { Band } from "../schemas";
import { roundRate } from "./sources/adapter";
import type { AssetPair } from "./types";

/** The middle value; the mean of the two middle values for an even count. */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError("median of no values");
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const upper = sorted[mid] as number;
  return sorted.length % 2 === 1 ? upper : roundRate(((sorted[mid - 1] as number) + upper) / 2);
}

/** Distance of `value` from `reference` in basis points of `reference`. */
export const distanceBps = (value: number, reference: number): number =>
  (Math.abs(value - reference) / reference) * 10_000;

export interface Named {
  name: string;
  value: number;
}

/**
 * Splits off the values further than `maxBps` from the median of all. Needs three values: with two,
 * nothing tells which one is wrong, so both stay and the band's width shows the disagreement.
 */
export function rejectOutliers<T extends Named>(values: readonly T[], maxBps: number): { kept: T[]; outliers: T[] } {
  if (values.length < 3) return { kept: [...values], outliers: [] };
  const m = median(values.map((v) => v.value));
  const kept: T[] = [];
  const outliers: T[] = [];
  for (const v of values) (distanceBps(v.value, m) > maxBps ? outliers : kept).push(v);
  return { kept, outliers };
}

/** The band of a pair from the values of its usable sources: median, extremes and count. Null when none. */
export function computeBand(values: readonly number[], pair: AssetPair, at: number): Band | null {
  if (values.length === 0) return null;
  return {
    base: pair.base,
    quote: pair.quote,
    mid: median(values),
    low: Math.min(...values),
    high: Math.max(...values),
    sources: values.length,
    at,
  };
}
