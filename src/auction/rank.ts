import { resolverKey } from "../ids";
import type { Standing } from "../resolvers";
import type { Offer, Steering } from "../schemas";
import type { OutputBounds } from "./band-guard";

/**
 * A bid that passed the checks made on arrival, with the amount the taker would receive from it; its
 * signature is checked only once the auction has closed (docs/resolver-protocol.md, "When signatures
 * are checked").
 */
export interface ValidBid {
  resolver: string;
  name: string;
  outputAmount: bigint;
  received: bigint;
  latencyMs: number;
  /** 0..1, or null while the resolver has too few samples. */
  reliability: number | null;
  demoted: boolean;
  signature: string;
  /** The part of the rfq's sell amount the bid fills (docs/legs.md); absent for the whole. */
  sellAmount?: bigint;
}

/** An offer as ranked, with the bid it shows (the auction house's bids also carry their amounts). */
export interface RankedOffer<B extends ValidBid = ValidBid> extends Offer {
  bid: B;
}

export interface Ranking<B extends ValidBid = ValidBid> {
  offers: RankedOffer<B>[];
  winner: RankedOffer<B> | null;
  steering: Steering | null;
}

/** The bids with their resolvers' standing, read when the auction closes: demoted or not, and reliability. */
export function withStanding<B extends ValidBid>(bids: readonly B[], standing: Standing): B[] {
  return bids.map((b) => {
    const address = resolverKey(b.resolver);
    return { ...b, demoted: standing.demoted.has(address), reliability: standing.reliability.get(address) ?? null };
  });
}

/** Best first: most received, then the more reliable resolver (unknown counts as least), then the faster. */
export function compareBids(a: ValidBid, b: ValidBid): number {
  if (a.received !== b.received) return a.received > b.received ? -1 : 1;
  const ra = a.reliability ?? -1;
  const rb = b.reliability ?? -1;
  if (ra !== rb) return rb - ra;
  return a.latencyMs - b.latencyMs;
}

/**
 * Ranks every valid bid and picks the winner: the best bid that steering lets win. A bid whose output is
 * outside `bounds` (the oracle band guard, for the rfq's `sellAmount`; a part's in proportion to its own) is
 * shown as `outside_band`; a demoted resolver's bid as `demoted`. Steering is recorded whenever a band guard
 * was in force or a demoted resolver bid.
 */
export function rankBids<B extends ValidBid>(
  bids: readonly B[],
  guard: { bandGuardBps: number; bounds: OutputBounds | null; sellAmount?: bigint },
): Ranking<B> {
  const { bounds } = guard;
  // A part's output against the whole's bounds scaled to its part, compared exactly: out × whole vs bound × part.
  const outside = (bid: B, b: OutputBounds) => {
    const whole = guard.sellAmount;
    if (bid.sellAmount === undefined || whole === undefined)
      return bid.outputAmount < b.min || bid.outputAmount > b.max;
    const out = bid.outputAmount * whole;
    return out < b.min * bid.sellAmount || out > b.max * bid.sellAmount;
  };
  const sorted = [...bids].sort(compareBids);
  const outsideBand: string[] = [];
  const demoted: string[] = [];
  let winner: RankedOffer<B> | null = null;
  const offers = sorted.map((bid, i): RankedOffer<B> => {
    let status: Offer["status"] = "lost";
    if (bounds && outside(bid, bounds)) {
      status = "outside_band";
      outsideBand.push(bid.resolver);
    } else if (bid.demoted) {
      status = "demoted";
      demoted.push(bid.resolver);
    } else if (!winner) {
      status = "won";
    }
    const offer: RankedOffer<B> = {
      resolver: bid.resolver,
      name: bid.name,
      outputAmount: bid.outputAmount.toString(),
      rank: i + 1,
      status,
      latencyMs: bid.latencyMs,
      won: status === "won",
      ...(bid.sellAmount === undefined ? {} : { sellAmount: bid.sellAmount.toString() }),
      bid,
    };
    if (status === "won") winner = offer;
    return offer;
  });
  const steered = bounds !== null || demoted.length > 0;
  return {
    offers,
    winner,
    steering: steered
      ? {
          bandGuardBps: guard.bandGuardBps,
          minOutput: bounds ? bounds.min.toString() : null,
          maxOutput: bounds ? bounds.max.toString() : null,
          outsideBand,
          demoted,
        }
      : null,
  };
}

/** The offers steering lets win, best first: who is asked next when a winner does not sign. */
export function winnable<O extends RankedOffer>(offers: readonly O[]): O[] {
  return offers.filter((o) => o.status === "won" || o.status === "lost");
}

/**
 * The offers with `winners` as the winners (one, or each leg's of a fill of several makers, or none):
 * every other offer steering let win is `lost`.
 */
export function crown<O extends RankedOffer>(offers: readonly O[], winners: readonly string[]): O[] {
  return offers.map((o): O => {
    if (o.status !== "won" && o.status !== "lost") return o;
    const won = winners.includes(o.resolver);
    return { ...o, status: won ? "won" : "lost", won };
  });
}

/**
 * The offers without `dropped` (bids whose signatures did not verify), ranked again from 1 in the same
 * order: a quote shows only the offers it could have been built from.
 */
export function withoutOffers<O extends RankedOffer>(offers: readonly O[], dropped: readonly RankedOffer[]): O[] {
  if (dropped.length === 0) return [...offers];
  const out = new Set(dropped.map((o) => o.resolver));
  return offers.filter((o) => !out.has(o.resolver)).map((o, i) => ({ ...o, rank: i + 1 }));
}
