import { dayOf } from "../db";
import { WORST_SLIPPAGE_BPS } from "./ladder";

/**
 * Whether a resolver's ladders are honest (docs/reliability.md, "Honest levels"): the slippage of what it
 * did with the amounts its ladders covered, counted per UTC day in slippage buckets, over a window of days.
 * One home for the thresholds and the buckets, used by the resolver record (its `levels` and the
 * `honest_levels` badge), by the corridor that serves ladders (`/v1/prices`) and by what D1 stores.
 */

/** Samples needed before the slippage says anything. */
export const MIN_LEVEL_SAMPLES = 20;
/** `honest_levels`: the 90th percentile of slippage at most this. */
export const HONEST_P90_BPS = 5;
/** Above this median slippage a node's ladders are left out of `/v1/prices`. */
export const SLOPPY_P50_BPS = 50;
/** The UTC days the record and the corridor look back over: today and the 6 before it, as reliability's. */
export const LEVELS_WINDOW_DAYS = 7;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The slippage buckets, each by its upper bound in bps (inclusive; the first takes every bid at or
 * better than its ladder, the last the worst case, a node that delivered nothing). HONEST_P90_BPS and
 * SLOPPY_P50_BPS are bounds, so the badge and the rule decide exactly as over single samples; a
 * percentile is told as the bound of its bucket. migrations/0020_level_days.sql buckets the same way.
 */
export const SLIPPAGE_BUCKETS_BPS = [
  0,
  1,
  2,
  5,
  10,
  20,
  50,
  100,
  200,
  500,
  1_000,
  2_000,
  5_000,
  WORST_SLIPPAGE_BPS,
] as const;

/** The index in SLIPPAGE_BUCKETS_BPS of the bucket a slippage falls in. */
function bucketIndex(bps: number): number {
  const i = SLIPPAGE_BUCKETS_BPS.findIndex((bound) => bps <= bound);
  return i === -1 ? SLIPPAGE_BUCKETS_BPS.length - 1 : i;
}

/** The bucket (its upper bound) a slippage falls in. */
export const bucketOf = (bps: number): number => SLIPPAGE_BUCKETS_BPS[bucketIndex(bps)] ?? WORST_SLIPPAGE_BPS;

/** Samples counted per bucket: a histogram of slippage. */
export type SlippageCounts = readonly { bucketBps: number; samples: number }[];

/** The first UTC day (YYYY-MM-DD) of the window ending at `now`. */
export const levelsSinceDay = (now: number): string =>
  dayOf(new Date(now - (LEVELS_WINDOW_DAYS - 1) * DAY_MS).toISOString());

export interface LevelsStanding {
  samples: number;
  p50SlippageBps: number | null;
  p90SlippageBps: number | null;
}

/** The `p`th percentile (0–100) by nearest rank of the counted samples, as its bucket's bound; null when none. */
export function percentile(counts: SlippageCounts, p: number): number | null {
  const total = counts.reduce((n, c) => n + c.samples, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * total));
  let seen = 0;
  for (const c of [...counts].sort((a, b) => a.bucketBps - b.bucketBps)) {
    seen += c.samples;
    if (seen >= rank) return c.bucketBps;
  }
  return null;
}

export function levelsStanding(counts: SlippageCounts): LevelsStanding {
  return {
    samples: counts.reduce((n, c) => n + c.samples, 0),
    p50SlippageBps: percentile(counts, 50),
    p90SlippageBps: percentile(counts, 90),
  };
}

/** The `honest_levels` badge: p90 slippage within 5 bps over at least 20 samples. */
export function honestLevels(s: LevelsStanding): boolean {
  return s.samples >= MIN_LEVEL_SAMPLES && s.p90SlippageBps !== null && s.p90SlippageBps <= HONEST_P90_BPS;
}

/** Whether the node's ladders are left out of `/v1/prices`: median slippage above 50 bps over at least 20 samples. */
export function sloppyLevels(s: LevelsStanding): boolean {
  return s.samples >= MIN_LEVEL_SAMPLES && s.p50SlippageBps !== null && s.p50SlippageBps > SLOPPY_P50_BPS;
}

/** How often a corridor reads again which nodes the stored counts leave out. */
const STORED_EVERY_MS = 10_000;

/**
 * Which nodes' ladders a corridor leaves out, decided without D1 on the price's path: from the samples
 * of its own auctions, counted in memory per node and day (at most LEVELS_WINDOW_DAYS + 1 days of buckets
 * each), so a node is left out at its 20th sample; and from the stored counts of every corridor (D1, the
 * record's), read behind the answers at most every 10 s, so a restart or another corridor's auctions count too.
 */
export class LevelsHonesty {
  /** Node → UTC day → samples per bucket (in SLIPPAGE_BUCKETS_BPS's order). */
  private readonly days = new Map<string, Map<string, number[]>>();
  private stored: ReadonlySet<string> = new Set();
  private storedAt = Number.NEGATIVE_INFINITY;

  /** `readStored(sinceDay)`: the lowercase addresses the stored counts from that day on leave out. */
  constructor(private readonly readStored: (sinceDay: string) => Promise<string[]> = async () => []) {}

  /** Starts a read of the stored counts' verdict when one is due; the promise is for `waitUntil`. */
  refresh(now: number): Promise<void> | null {
    if (now - this.storedAt < STORED_EVERY_MS) return null;
    this.storedAt = now;
    this.forgetBefore(levelsSinceDay(now));
    return this.readStored(levelsSinceDay(now)).then(
      (nodes) => {
        this.stored = new Set(nodes);
      },
      () => {
        this.storedAt = Number.NEGATIVE_INFINITY;
      },
    );
  }

  add(node: string, bps: number, at: number): void {
    const days = this.days.get(node) ?? new Map<string, number[]>();
    const day = dayOf(new Date(at).toISOString());
    const counts = days.get(day) ?? SLIPPAGE_BUCKETS_BPS.map(() => 0);
    const i = bucketIndex(bps);
    counts[i] = (counts[i] ?? 0) + 1;
    days.set(day, counts);
    this.days.set(node, days);
  }

  /** The node's standing over the window ending at `now`. */
  standing(node: string, now: number): LevelsStanding {
    const since = levelsSinceDay(now);
    const totals = SLIPPAGE_BUCKETS_BPS.map(() => 0);
    for (const [day, counts] of this.days.get(node) ?? []) {
      if (day < since) continue;
      for (const [i, n] of counts.entries()) totals[i] = (totals[i] ?? 0) + n;
    }
    return levelsStanding(SLIPPAGE_BUCKETS_BPS.map((bucketBps, i) => ({ bucketBps, samples: totals[i] ?? 0 })));
  }

  /** Whether the node's ladders are left out of the corridor's prices now, by its own samples or the stored ones. */
  excluded(node: string, now: number): boolean {
    return this.stored.has(node) || sloppyLevels(this.standing(node, now));
  }

  /** Drops the days before `sinceDay`, and the nodes left with none. */
  private forgetBefore(sinceDay: string): void {
    for (const [node, days] of this.days) {
      for (const day of days.keys()) if (day < sinceDay) days.delete(day);
      if (days.size === 0) this.days.delete(node);
    }
  }
}
