import type { FeeCharge } from "../chains";
import { resolverKey } from "../ids";
import { protocolFee } from "./amounts";
import { gasFeeOfLegs, type LegGasFee } from "./leg-gas-fee";

/**
 * Which bids fill a quote (docs/legs.md, "How legs are chosen"): one whole bid, or parts of different
 * resolvers that together sell exactly the asked amount, whichever pays the taker most. Exact: every set
 * of at most `maxLegs` parts that covers the amount is weighed, not the best rates first (which can miss
 * the best cover, as a knapsack's greedy does).
 */

/** A valid bid as composing reads it. */
export interface LegBid {
  resolver: string;
  outputAmount: bigint;
  /** The part of the rfq's sell amount the bid fills; absent for the whole. */
  sellAmount?: bigint;
}

export interface LegTerms {
  /** The rfq's asked sell amount. */
  sellAmount: bigint;
  /** The least a part may sell: the sold token's `minLegSellAmount` (docs/configuration.md). */
  minLegSellAmount: bigint;
  /** The most legs one fill may have: the chain's `maxLegs`. */
  maxLegs: number;
  /** The protocol fee as today (`feeChargeFor`): on the buy side it is taken from each leg's output. */
  fee: Pick<FeeCharge, "bps" | "side">;
  /** The priced gas fee, in the buy token, by legs (src/auction/leg-gas-fee.ts). */
  gas: LegGasFee;
}

/** One leg of a fill: the bid, the part of the sale it fills, and its protocol fee in the buy token. */
export interface Leg<B extends LegBid> {
  bid: B;
  sellAmount: bigint;
  fee: bigint;
}

/** The chosen fill: its legs in the bids' rank order, and its sums in the buy token. */
export interface ComposedFill<B extends LegBid> {
  legs: Leg<B>[];
  outputAmount: bigint;
  /** The protocol fee taken from the outputs (0 when it is charged in the sell token). */
  fee: bigint;
  gasFee: bigint;
  /** What the recipient receives: the outputs less the fee and the gas fee of this many legs. */
  received: bigint;
}

/** A bid as the search weighs it: its place in the rank order, the part it sells, its output less its fee. */
export interface Candidate<B extends LegBid> {
  bid: B;
  /** The resolver as one key, whatever the case of its address (`resolverKey`). */
  resolver: string;
  rank: number;
  amount: bigint;
  fee: bigint;
  net: bigint;
}

/** A set of candidates and its worth: the nets less each leg's gas part (the swap's part is the same for all). */
export interface Choice<B extends LegBid> {
  members: Candidate<B>[];
  worth: bigint;
}

/**
 * Better first: more worth, then fewer legs, then the better places in the rank order (the members'
 * ranks sorted, compared in turn), so two different sets never tie.
 */
export function compareChoices<B extends LegBid>(a: Choice<B>, b: Choice<B>): number {
  if (a.worth !== b.worth) return a.worth > b.worth ? -1 : 1;
  if (a.members.length !== b.members.length) return a.members.length - b.members.length;
  const ra = a.members.map((m) => m.rank).sort((x, y) => x - y);
  const rb = b.members.map((m) => m.rank).sort((x, y) => x - y);
  for (let i = 0; i < ra.length; i++) {
    if (ra[i] !== rb[i]) return (ra[i] as number) - (rb[i] as number);
  }
  return 0;
}

/**
 * The best fill of `terms.sellAmount` from `bids`, given best first in the auction's rank order
 * (`compareBids`, the winnable ones only); null when no set covers the amount or none leaves the
 * recipient anything. A bid whose part is below `minLegSellAmount` or above the asked amount is no leg; a
 * part of exactly the asked amount is a whole bid.
 */
export function composeLegs<B extends LegBid>(bids: readonly B[], terms: LegTerms): ComposedFill<B> | null {
  const { wholes, parts } = candidatesOf(bids, terms);
  const perLeg = terms.gas.perLeg;
  let best: Choice<B> | null = null;
  for (const whole of wholes) {
    const choice = { members: [whole], worth: whole.net - perLeg };
    if (!best || compareChoices(choice, best) < 0) best = choice;
  }
  const cover = bestCover(parts, terms.sellAmount, terms.maxLegs, perLeg).best;
  if (cover && (!best || compareChoices(cover, best) < 0)) best = cover;
  if (!best) return null;
  const gasFee = gasFeeOfLegs(terms.gas, best.members.length);
  const received = best.worth - terms.gas.perSwap;
  if (received <= 0n) return null;
  const members = [...best.members].sort((a, b) => a.rank - b.rank);
  const sum = (f: (m: Candidate<B>) => bigint) => members.reduce((s, m) => s + f(m), 0n);
  return {
    legs: members.map((m) => ({ bid: m.bid, sellAmount: m.amount, fee: m.fee })),
    outputAmount: sum((m) => m.bid.outputAmount),
    fee: sum((m) => m.fee),
    gasFee,
    received,
  };
}

/** The bids that may be legs, weighed: wholes, and parts within the corridor's bounds. */
export function candidatesOf<B extends LegBid>(
  bids: readonly B[],
  terms: Pick<LegTerms, "sellAmount" | "minLegSellAmount" | "fee">,
): { wholes: Candidate<B>[]; parts: Candidate<B>[] } {
  const wholes: Candidate<B>[] = [];
  const parts: Candidate<B>[] = [];
  bids.forEach((bid, rank) => {
    const amount = bid.sellAmount ?? terms.sellAmount;
    // The protocol fee of each leg is that leg's own, rounded down as one fill's is today.
    const fee = terms.fee.side === "buy" ? protocolFee(bid.outputAmount, terms.fee.bps) : 0n;
    const candidate = { bid, resolver: resolverKey(bid.resolver), rank, amount, fee, net: bid.outputAmount - fee };
    if (amount === terms.sellAmount) wholes.push(candidate);
    else if (amount > 0n && amount >= terms.minLegSellAmount && amount < terms.sellAmount) parts.push(candidate);
  });
  return { wholes, parts };
}

/**
 * The best set of at most `maxLegs` parts of different resolvers whose amounts sum to exactly `need`, by
 * `compareChoices`, and the steps the search took. Each set is reached once: its members but the last
 * (in the order below) are walked in order, and the last is looked up by the amount still needed among
 * the parts after them. Parts are walked largest first, so the walk stops where even the largest part left,
 * taken in every free leg, no longer reaches what is needed.
 *
 * Work: at most one step per walked prefix (Σ C(n, i) for i < maxLegs) plus the parts scanned in the
 * lookups; for 20 parts and 4 legs, 1,351 prefixes (docs/legs.md has the measured figures).
 */
export function bestCover<B extends LegBid>(
  parts: readonly Candidate<B>[],
  need: bigint,
  maxLegs: number,
  perLeg: bigint,
): { best: Choice<B> | null; steps: number } {
  const order = [...parts].sort((a, b) => (a.amount !== b.amount ? (a.amount > b.amount ? -1 : 1) : a.rank - b.rank));
  // Each amount's parts, the best net first (then the better rank), with their places in `order`.
  const byAmount = new Map<bigint, { part: Candidate<B>; at: number }[]>();
  order.forEach((part, at) => {
    const same = byAmount.get(part.amount) ?? [];
    same.push({ part, at });
    byAmount.set(part.amount, same);
  });
  for (const same of byAmount.values())
    same.sort((x, y) => (x.part.net !== y.part.net ? (x.part.net > y.part.net ? -1 : 1) : x.part.rank - y.part.rank));

  let best: Choice<B> | null = null;
  let steps = 0;
  const taken = (chosen: readonly Candidate<B>[], part: Candidate<B>) =>
    chosen.some((c) => c.resolver === part.resolver);
  const walk = (from: number, chosen: Candidate<B>[], left: bigint, worth: bigint): void => {
    steps++;
    if (chosen.length >= 1) {
      // The last leg: the best part of exactly what is left, after the walked ones, of a resolver not in yet.
      for (const { part, at } of byAmount.get(left) ?? []) {
        steps++;
        if (at < from || taken(chosen, part)) continue;
        const choice = { members: [...chosen, part], worth: worth + part.net - perLeg };
        if (!best || compareChoices(choice, best) < 0) best = choice;
        break;
      }
    }
    const free = maxLegs - chosen.length;
    if (free < 2) return;
    for (let i = from; i < order.length; i++) {
      const part = order[i] as Candidate<B>;
      if (part.amount >= left) continue;
      if (part.amount * BigInt(free) < left) break;
      if (taken(chosen, part)) continue;
      walk(i + 1, [...chosen, part], left - part.amount, worth + part.net - perLeg);
    }
  };
  if (maxLegs >= 2) walk(0, [], need, 0n);
  return { best, steps };
}
