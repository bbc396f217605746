import type { QuoteAmounts } from "../types";
import { type ComposedFill, composeLegs, type LegTerms } from "./compose-legs";
import type { DecideContext, Decision } from "./decide";
import type { JsonObject } from "./quote-outcome";
import { crown, type RankedOffer, winnable, withoutOffers } from "./rank";
import { signLegs } from "./sign-legs";

/** A leg of a quote filled by several makers, as its stored signing keeps it for the keeper. */
export interface SignedLeg {
  resolver: string;
  sellAmount: string;
  outputAmount: string;
  signature: string;
}

/**
 * The fill of an auction in which parts were bid (docs/legs.md): the best set of whole bids and parts by
 * `composeLegs`, each of its legs' signatures checked and its output held for the taker, all or none. A
 * leg whose signature is forged is left out, as is one whose resolver has not enough free of the taker's
 * open quotes, and the fill is composed again from the rest, until one holds or none covers the amount.
 * One leg is a whole bid as `decideWinner` picks it; several are kept in the signing as `legs`, the
 * largest leg's resolver the quote's. Where resolvers sign after the auction (Solana), every leg's
 * resolver signs the one transaction (`signLegs`); one that does not is struck and left out, and the fill
 * is composed again from the rest.
 */
export async function decideLegs<O extends RankedOffer>(
  ctx: DecideContext<O> & { legTerms(): Promise<LegTerms> },
  ranked: O[],
  forged: O[],
): Promise<Decision<O> | null> {
  const { signing, terms } = ctx;
  const legTerms = await ctx.legTerms();
  const short = new Set<string>();
  for (;;) {
    const out = new Set([...forged.map((o) => o.resolver), ...short]);
    const pool = winnable(ranked).filter((o) => !out.has(o.resolver));
    const fill = composeLegs(pool.map(legBid), legTerms);
    if (!fill) return null;
    const offers = fill.legs.map((l) => l.bid.offer);
    const bad = offers.filter((o) => !ctx.verifyBid(o));
    if (bad.length > 0) {
      forged.push(...bad);
      continue;
    }
    const releases: (() => void)[] = [];
    const uncovered = offers.find((o) => {
      const release = ctx.hold(o, ctx.amountsOf(o));
      if (release) releases.push(release);
      return !release;
    });
    if (uncovered) {
      for (const release of releases) release();
      short.add(uncovered.resolver);
      continue;
    }
    const amounts = amountsOf(fill, legTerms.sellAmount);
    const lead = leadOf(fill);
    let taker: JsonObject;
    let winnerSignature: string | null = null;
    if (signing.kind === "taker")
      taker = signing.takerSigning(terms, { resolver: lead.resolver, amounts }) as JsonObject;
    else {
      const legs = fill.legs.map((l) => ({ offer: l.bid.offer, sellAmount: l.sellAmount }));
      const signed = await signLegs(ctx, signing, legs, lead, amounts);
      if (signed.kind !== "signed") {
        for (const release of releases) release();
        if (signed.kind === "unbuildable") {
          return { offers: withoutOffers(crown(ranked, []), forged), winner: null, forged, unbuildable: true };
        }
        for (const resolver of signed.resolvers) short.add(resolver);
        continue;
      }
      taker = signed.signing;
      winnerSignature = signed.signature;
    }
    const shown = withoutOffers(
      crown(
        ranked,
        offers.map((o) => o.resolver),
      ),
      forged,
    );
    const extraGas = fill.gasFee - (legTerms.gas.perSwap + legTerms.gas.perLeg);
    const kept = extraGas > 0n ? shown.map((o) => atGasFee(o, extraGas)) : shown;
    const winner = kept.find((o) => o.resolver === lead.resolver) ?? lead;
    const legs = fill.legs.length > 1 ? fill.legs.map(signedLeg) : undefined;
    return { offers: kept, winner: { offer: winner, amounts, signing: taker, winnerSignature, legs }, forged };
  }
}

/**
 * A whole offer as the quote keeps it for a fade (src/keeper/fade.ts): what it leaves the recipient under the
 * gas fee the taker signs, that of the fill's legs, `extraGas` over one leg's.
 */
function atGasFee<O extends RankedOffer>(offer: O, extraGas: bigint): O {
  if (offer.bid.sellAmount !== undefined) return offer;
  return { ...offer, bid: { ...offer.bid, received: offer.bid.received - extraGas } };
}

const legBid = <O extends RankedOffer>(offer: O) => ({
  resolver: offer.resolver,
  outputAmount: offer.bid.outputAmount,
  sellAmount: offer.bid.sellAmount,
  offer,
});

/** A fill's amounts as a quote's: the legs' outputs, fees and gas fee together; the taker pays the sell amount. */
function amountsOf(fill: ComposedFill<ReturnType<typeof legBid>>, sellAmount: bigint): QuoteAmounts {
  const { outputAmount, fee, gasFee, received } = fill;
  return { outputAmount, fee, gasFee, received, takerPays: sellAmount, proceeds: sellAmount };
}

/** The quote's resolver: its largest leg's, the better ranked between equals. */
function leadOf<O extends RankedOffer>(fill: ComposedFill<{ offer: O } & ReturnType<typeof legBid>>): O {
  const [first, ...rest] = fill.legs;
  let lead = first as NonNullable<typeof first>;
  for (const leg of rest) if (leg.sellAmount > lead.sellAmount) lead = leg;
  return lead.bid.offer;
}

function signedLeg(leg: ComposedFill<ReturnType<typeof legBid>>["legs"][number]): SignedLeg {
  return {
    resolver: leg.bid.resolver,
    sellAmount: leg.sellAmount.toString(),
    outputAmount: leg.bid.outputAmount.toString(),
    signature: leg.bid.offer.bid.signature,
  };
}
