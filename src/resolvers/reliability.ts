import { type Counter, type DayCounts, dayOf, type Totals } from "../db";
import { resolverKey } from "../ids";
import { Badge, type ReliabilityDetail } from "../schemas";

type Measure = ReliabilityDetail["response"];

/** The window: today (UTC) and the days before it, this many in all. */
export const WINDOW_DAYS = 7;
/** Samples each measure needs before `reliability` is stated. */
export const MIN_SAMPLES = 20;
/** `fast`: more than half of the replies within this many milliseconds, over at least `MIN_SAMPLES` replies. */
export const FAST_REPLY_MS = 100;
/** `reliable`: reliability at least this. */
export const RELIABLE_FROM = 0.95;

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** `new`: first seen less than this long ago. */
const NEW_FOR_MS = WINDOW_DAYS * DAY_MS;

/** The first day of the window that ends today. */
export const windowStart = (now: number) => dayOf(new Date(now - (WINDOW_DAYS - 1) * DAY_MS).toISOString());

/** The window's UTC days, oldest first, ending today. */
export const windowDays = (now: number): string[] =>
  Array.from({ length: WINDOW_DAYS }, (_, i) => dayOf(new Date(now - (WINDOW_DAYS - 1 - i) * DAY_MS).toISOString()));

/** What one auction counts towards its asked resolvers' reliability: lowercase addresses, reply latencies in ms. */
export interface AuctionCounts {
  asked: readonly string[];
  answered: ReadonlySet<string>;
  /** The quote's resolver; of a fill of several makers, its largest leg's. */
  winner: string | null;
  /** Every leg's resolver of a fill of several makers, each of whom won (docs/legs.md); absent for one. */
  legs?: readonly string[];
  replyMs: ReadonlyMap<string, number>;
  at: string;
}

/**
 * One auction's counts per asked resolver: asked, answered (a reply inside the window), won, and its
 * reply latency, fast or not. Every reply inside the window has a latency, a decline or a rejected bid
 * as much as a valid bid: how soon a resolver answers is what `fast` measures.
 */
/** The reply-latency buckets' upper bounds in ms (migrations/0013), each with its counter. */
export const REPLY_BUCKETS = [
  [25, "replies25"],
  [50, "replies50"],
  [100, "replies100"],
  [200, "replies200"],
  [400, "replies400"],
  [800, "replies800"],
] as const satisfies readonly (readonly [number, Counter])[];

/** The counter of the bucket a reply of `ms` falls in; null past the last bound. */
export function replyBucket(ms: number): Counter | null {
  return REPLY_BUCKETS.find(([bound]) => ms <= bound)?.[1] ?? null;
}

/**
 * The p50 and p99 reply latency of `totals`, each as the upper bound of the bucket it falls in (ms); a
 * quantile past the last bucket is `windowMs`, the auction window every counted reply came within. Null
 * without replies.
 */
export function replyLatency(totals: Totals, windowMs: number): { p50Ms: number; p99Ms: number } | null {
  if (totals.replies === 0) return null;
  const at = (q: number) => {
    let seen = 0;
    for (const [bound, counter] of REPLY_BUCKETS) {
      seen += totals[counter];
      if (seen >= q * totals.replies) return bound;
    }
    return windowMs;
  };
  return { p50Ms: at(0.5), p99Ms: at(0.99) };
}

export function auctionDayCounts(auction: Omit<AuctionCounts, "at">): Map<string, DayCounts> {
  const winners = new Set(
    [...(auction.winner === null ? [] : [auction.winner]), ...(auction.legs ?? [])].map(resolverKey),
  );
  const counts = new Map<string, DayCounts>();
  for (const address of auction.asked) {
    const a = resolverKey(address);
    const latency = auction.replyMs.get(a);
    const bucket = latency === undefined ? null : replyBucket(latency);
    counts.set(a, {
      asked: 1,
      answered: auction.answered.has(a) ? 1 : 0,
      won: winners.has(a) ? 1 : 0,
      replies: latency === undefined ? 0 : 1,
      fastReplies: latency !== undefined && latency <= FAST_REPLY_MS ? 1 : 0,
      ...(bucket ? { [bucket]: 1 } : {}),
    });
  }
  return counts;
}

/** `hits / samples`, null without samples. */
function measure(hits: number, samples: number): Measure {
  return { rate: samples === 0 ? null : hits / samples, samples };
}

/**
 * The fill measure: settled fills over those and the resolver's own failures (docs/reliability.md, "What
 * is measured"). A fill that failed for the taker's or the relay's reason is neither, so nobody else's
 * doing, however often, moves a resolver's rate or its samples.
 */
export const fillMeasure = (t: Pick<Totals, "settled" | "failed">): Measure => measure(t.settled, t.settled + t.failed);

/** The three measures over the window; null when the resolver has no samples of any. */
export function detailOf(t: Totals): ReliabilityDetail | null {
  const minutes = Math.floor(t.connectedMs / MINUTE_MS);
  const detail: ReliabilityDetail = {
    response: measure(t.answered, t.asked),
    fill: fillMeasure(t),
    uptime: { rate: minutes === 0 ? null : Math.min(1, t.freshMs / t.connectedMs), samples: minutes },
  };
  const { response, fill, uptime } = detail;
  return response.samples + fill.samples + uptime.samples === 0 ? null : detail;
}

/** The product of the three rates once each has `MIN_SAMPLES` samples; null before. */
export function reliabilityOf(detail: ReliabilityDetail | null): number | null {
  if (!detail) return null;
  const measures = [detail.response, detail.fill, detail.uptime];
  let product = 1;
  for (const m of measures) {
    if (m.samples < MIN_SAMPLES || m.rate === null) return null;
    product *= m.rate;
  }
  return product;
}

/** What the badges are derived from. */
export interface BadgeFacts {
  totals: Pick<Totals, "replies" | "fastReplies">;
  reliability: number | null;
  /** Whether the resolver proved a Solana key. */
  solana: boolean;
  firstSeen: string | null;
  /** Whether its price ladders are honest (src/levels/honesty.ts); known only where its record is read. */
  honestLevels?: boolean;
}

/** The badges, in a fixed order (docs/reliability.md, "Badges"). */
export function badgesOf(f: BadgeFacts, now: number): Badge[] {
  const { replies, fastReplies } = f.totals;
  const earned: Record<Badge, boolean> = {
    // More than half within the threshold: the median reply is within it.
    fast: replies >= MIN_SAMPLES && 2 * fastReplies > replies,
    reliable: f.reliability !== null && f.reliability >= RELIABLE_FROM,
    solana: f.solana,
    new: f.firstSeen !== null && now - Date.parse(f.firstSeen) < NEW_FOR_MS,
    honest_levels: f.honestLevels === true,
  };
  return Badge.options.filter((b) => earned[b]);
}

/** The directory's reliability fields of one resolver. */
export function reliabilityFields(
  totals: Totals,
  facts: Omit<BadgeFacts, "totals" | "reliability">,
  now: number,
): { reliability: number | null; reliabilityDetail: ReliabilityDetail | null; badges: Badge[] } {
  const reliabilityDetail = detailOf(totals);
  const reliability = reliabilityOf(reliabilityDetail);
  return { reliability, reliabilityDetail, badges: badgesOf({ ...facts, totals, reliability }, now) };
}
