import { type DayCounts, dayOf, type Totals } from "../db/resolver-days";
import { Badge, type ReliabilityDetail } from "../schemas/resolvers";

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

/** What one auction counts towards its asked resolvers' reliability: lowercase addresses, reply latencies in ms. */
export interface AuctionCounts {
  asked: readonly string[];
  answered: ReadonlySet<string>;
  winner: string | null;
  replyMs: ReadonlyMap<string, number>;
  at: string;
}

/**
 * One auction's counts per asked resolver: asked, answered (a reply inside the window), won, and its
 * reply latency, fast or not. Every reply inside the window has a latency, a decline or a rejected bid
 * as much as a valid bid: how soon a resolver answers is what `fast` measures.
 */
export function auctionDayCounts(auction: Omit<AuctionCounts, "at">): Map<string, DayCounts> {
  const winner = auction.winner?.toLowerCase() ?? null;
  const counts = new Map<string, DayCounts>();
  for (const address of auction.asked) {
    const a = address.toLowerCase();
    const latency = auction.replyMs.get(a);
    counts.set(a, {
      asked: 1,
      answered: auction.answered.has(a) ? 1 : 0,
      won: a === winner ? 1 : 0,
      replies: latency === undefined ? 0 : 1,
      fastReplies: latency !== undefined && latency <= FAST_REPLY_MS ? 1 : 0,
    });
  }
  return counts;
}

/** `hits / samples`, null without samples; at most 1 (a fill settled in the window may have been submitted before it). */
function measure(hits: number, samples: number): Measure {
  return { rate: samples === 0 ? null : Math.min(1, hits / samples), samples };
}

/** The three measures over the window; null when the resolver has no samples of any. */
export function detailOf(t: Totals): ReliabilityDetail | null {
  const minutes = Math.floor(t.connectedMs / MINUTE_MS);
  const detail: ReliabilityDetail = {
    response: measure(t.answered, t.asked),
    fill: measure(t.settled, t.submitted),
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
