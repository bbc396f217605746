import { composeLegs } from "../auction";
import type { SignedOffer } from "../db";
import { resolverKey } from "../ids";

/**
 * What fills a faded quote in place of its winner or faded leg (docs/settlement.md, "When the winner fades";
 * docs/legs.md, "Settlement and blame"): the best fill `composeLegs` finds from the quote's other offers,
 * whole bids and parts, under what the taker signed. Pure: the keeper simulates each choice it makes.
 */

/** An offer that may be a leg of the replacement: its bid's signature kept, with what it leaves the recipient. */
export type NextOffer = SignedOffer & { signature: string; received: string };

/** What the taker signed and the chain applies, which every replacement must meet. */
export interface ReplacementTerms {
  /** The swap's sell amount: what the legs sell together. */
  sellAmount: bigint;
  /** The least the recipient may get: the witness's `minReceived`. */
  minReceived: bigint;
  /** The gas fee the taker signed, when it is taken from the output (0 when charged in the sell token). */
  gasFromOutput: bigint;
  /**
   * The most legs the replacement may have: those of the fill that faded, whose gas the signed gas fee
   * paid for (never more than the chain's `maxLegs`). The gas fee is fixed by the taker's signature, so a
   * fill of more legs would cost the keeper gas nobody paid for.
   */
  maxLegs: number;
  /** The protocol fee: taken from each leg's output (`buy`), or from the sale, which no leg changes. */
  fee: { bps: number; side: "buy" | "sell" };
}

/** The chosen replacement: its legs in rank order, what the recipient gets and the legs' protocol fee. */
export interface Replacement {
  legs: NextOffer[];
  received: bigint;
  /** The protocol fee taken from the legs' outputs (0 when it is charged in the sell token). */
  fee: bigint;
}

/**
 * The best fill of the quote from `offers` (by rank) without the resolvers in `excluded` (the faded one,
 * and any whose leg of an earlier choice failed its simulation), or null when none leaves the recipient
 * at least `minReceived`. Its legs are offers that won (the quote's other legs) or lost, whose signature
 * and amounts were kept: `outside_band`, `demoted` and `faded` offers never fill. Between fills that pay
 * the same, the one of fewer legs.
 */
export function replacementOf(
  offers: readonly SignedOffer[],
  terms: ReplacementTerms,
  excluded: ReadonlySet<string>,
): Replacement | null {
  const out = new Set([...excluded].map(resolverKey));
  const bids = offers
    .filter((o): o is NextOffer => (o.status === "won" || o.status === "lost") && o.signature !== null)
    .filter((o) => o.received !== null && !out.has(resolverKey(o.resolver)))
    .sort((a, b) => a.rank - b.rank)
    .map((offer) => ({
      resolver: offer.resolver,
      outputAmount: BigInt(offer.outputAmount),
      ...(offer.sellAmount === null ? {} : { sellAmount: BigInt(offer.sellAmount) }),
      offer,
    }));
  // Every leg pays the one gas fee the taker signed, whatever their number: the swap's part, none per leg.
  const fill = composeLegs(bids, {
    sellAmount: terms.sellAmount,
    // A part was checked against the least leg when it was bid; what is kept is a leg.
    minLegSellAmount: 1n,
    maxLegs: terms.maxLegs,
    fee: terms.fee,
    gas: { perSwap: terms.gasFromOutput, perLeg: 0n },
  });
  if (!fill || fill.received < terms.minReceived) return null;
  return { legs: fill.legs.map((l) => l.bid.offer), received: fill.received, fee: fill.fee };
}

/** The protocol fee of a replacement as the quote records it: its legs', or the sale's when charged in the sell token. */
export function replacementFee(
  replacement: Replacement,
  terms: Pick<ReplacementTerms, "fee">,
  saleFee: string,
): string {
  return terms.fee.side === "buy" ? replacement.fee.toString() : saleFee;
}

/** The quote's resolver of a replacement: its largest leg's, the better ranked between equals (as `decideLegs`). */
export function leadOf(legs: readonly NextOffer[], sellAmount: bigint): NextOffer {
  const part = (o: NextOffer) => (o.sellAmount === null ? sellAmount : BigInt(o.sellAmount));
  let lead = legs[0] as NextOffer;
  for (const leg of legs.slice(1)) if (part(leg) > part(lead)) lead = leg;
  return lead;
}
