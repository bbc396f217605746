/**
 * Whether a resolver's ladders are honest (docs/reliability.md, "Honest levels"): the slippage of its firm
 * bids against its own ladders, over a window. One home for the thresholds, used by the resolver record
 * (its `levels` and the `honest_levels` badge) and by the corridor that serves ladders (`/v1/prices`).
 */

/** Samples needed before the slippage says anything. */
export const MIN_LEVEL_SAMPLES = 20;
/** `honest_levels`: the 90th percentile of slippage at most this. */
export const HONEST_P90_BPS = 5;
/** Above this median slippage a node's ladders are left out of `/v1/prices`. */
export const SLOPPY_P50_BPS = 50;
/** The window the record and the corridor look back over. */
export const LEVELS_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

export interface LevelsStanding {
  samples: number;
  p50SlippageBps: number | null;
  p90SlippageBps: number | null;
}

/** The `p`th percentile (0–100) by nearest rank of `values`, or null when there are none. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] ?? null;
}

export function levelsStanding(slippages: readonly number[]): LevelsStanding {
  return {
    samples: slippages.length,
    p50SlippageBps: percentile(slippages, 50),
    p90SlippageBps: percentile(slippages, 90),
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

/** How many samples per node a corridor keeps in memory: enough for the percentiles, bounded. */
const KEPT_SAMPLES = 200;
/** How often a corridor reads again which nodes the stored samples leave out. */
const STORED_EVERY_MS = 10_000;

/**
 * Which nodes' ladders a corridor leaves out, decided without D1 on the price's path: from the samples
 * of its own auctions, kept in memory so a node that starts bidding under its ladders is left out at its
 * 20th sample; and from the stored samples of every corridor (D1, the record's), read behind the answers
 * at most every 10 s, so a restart or another corridor's auctions count too.
 */
export class LevelsHonesty {
  private readonly samples = new Map<string, { at: number; bps: number }[]>();
  private stored: ReadonlySet<string> = new Set();
  private storedAt = Number.NEGATIVE_INFINITY;

  /** `readStored(since)`: the lowercase addresses the stored samples since `since` leave out. */
  constructor(private readonly readStored: (since: number) => Promise<string[]> = async () => []) {}

  /** Starts a read of the stored samples' verdict when one is due; the promise is for `waitUntil`. */
  refresh(now: number): Promise<void> | null {
    if (now - this.storedAt < STORED_EVERY_MS) return null;
    this.storedAt = now;
    return this.readStored(now - LEVELS_WINDOW_MS).then(
      (nodes) => {
        this.stored = new Set(nodes);
      },
      () => {
        this.storedAt = Number.NEGATIVE_INFINITY;
      },
    );
  }

  add(node: string, bps: number, at: number): void {
    const kept = this.samples.get(node) ?? [];
    kept.push({ at, bps });
    if (kept.length > KEPT_SAMPLES) kept.shift();
    this.samples.set(node, kept);
  }

  /** The node's standing over the window ending at `now`. */
  standing(node: string, now: number): LevelsStanding {
    const since = now - LEVELS_WINDOW_MS;
    return levelsStanding((this.samples.get(node) ?? []).filter((s) => s.at >= since).map((s) => s.bps));
  }

  /** Whether the node's ladders are left out of the corridor's prices now, by its own samples or the stored ones. */
  excluded(node: string, now: number): boolean {
    return this.stored.has(node) || sloppyLevels(this.standing(node, now));
  }
}
