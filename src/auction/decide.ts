import type { QuoteSigning, RfqTerms } from "../chains";
import { resolverKey } from "../ids";
import type { NodeSession } from "../nodes";
import type { QuoteAmounts } from "../types";
import type { Clock } from "./clock";
import type { LegTerms } from "./compose-legs";
import { decideLegs, type SignedLeg } from "./decide-legs";
import type { JsonObject } from "./quote-outcome";
import { crown, type RankedOffer, winnable, withoutOffers } from "./rank";
import { COLD_READ_WAIT_MS } from "./sign-legs";

/**
 * The auction's winner once decided, and what the taker signs for it; where the winner signs after the
 * auction, the winner is the best offer whose resolver signed, and its signature is kept.
 */
export interface Decision<O extends RankedOffer = RankedOffer> {
  /** The ranking without the forged offers, ranked again from 1: what the quote shows. */
  offers: O[];
  winner: DecidedWinner<O> | null;
  /** Offers that would have won but whose bid signature is not their resolver's, best first. */
  forged: O[];
  /** No winner because the chain state to build the winner's transaction with is stale (its RPC is down). */
  unbuildable?: true;
  /** A limit round whose best bid gives the recipient less than the order's `minOut`: what it gives. */
  belowLimit?: bigint;
}

/** The decided winner: its offer, the amounts of its bid, what the taker signs, and its own signature if it signs. */
export interface DecidedWinner<O extends RankedOffer = RankedOffer> {
  offer: O;
  amounts: QuoteAmounts;
  signing: JsonObject;
  winnerSignature: string | null;
  /** A fill of several makers: each leg, kept for the keeper (docs/legs.md); absent for one bid. */
  legs?: SignedLeg[];
}

/** What deciding needs of the auction that ranked the offers. */
export interface DecideContext<O extends RankedOffer> {
  signing: QuoteSigning;
  terms: RfqTerms;
  /** The auction's asked nodes, by lower-case address. */
  nodes: ReadonlyMap<string, NodeSession>;
  /** Settles when the chain-state read started with the auction does. */
  fresh: Promise<void>;
  clock: Clock;
  /** The amounts of a valid offer's bid (which covers the fees, or it would not be valid). */
  amountsOf(offer: O): QuoteAmounts;
  /** Whether the offer's bid signature is its resolver's over the rfq's commitment (the adapter's `verifyBid`). */
  verifyBid(offer: O): boolean;
  /** Sends `sign` to the node; its signature, or null when none came in time (src/auction/winner-signatures.ts). */
  askToSign(address: string, transaction: string): Promise<string | null>;
  /** A strike for a winner that did not sign (docs/reliability.md). */
  strike(address: string, why: string): void;
  /**
   * Holds the offer's output for the quote's taker against what its resolver has free of that taker's open
   * quotes, if that covers it (src/auction/taker-holds.ts, `holdWin`), and answers how to let go of it should
   * the offer not win after all (its resolver did not sign); null: it does not cover it, the offer cannot
   * win, and the next one is tried.
   */
  hold(offer: O, amounts: QuoteAmounts): (() => void) | null;
  /** The terms to compose legs on, read only when parts were bid (src/auction/parts.ts). */
  legTerms(): Promise<LegTerms>;
}

/**
 * The winner: the best offer steering lets win whose bid signature verifies (bids are accepted without
 * checking it, so only the offers tried here are checked on the quote's path), and in a limit round only
 * if the recipient gets the order's `minOut`. On a chain where the winner signs after the auction, the
 * best such offer whose resolver answered `sign` in time with a signature that verifies; one that does
 * not gets a strike. Forged offers are returned for the caller to reject, and left out of `offers`.
 * The adapters build what the taker signs from JSON-ready values (src/chains/evm/typed-data.ts, `withBigintsAsStrings`).
 */
export async function decideWinner<O extends RankedOffer>(ctx: DecideContext<O>, ranked: O[]): Promise<Decision<O>> {
  const { signing, terms } = ctx;
  const forged: O[] = [];
  const none = (why: Pick<Decision, "unbuildable" | "belowLimit"> = {}): Decision<O> => ({
    offers: withoutOffers(crown(ranked, []), forged),
    winner: null,
    forged,
    ...why,
  });
  const crowned = (offer: O) => {
    const offers = withoutOffers(crown(ranked, [offer.resolver]), forged);
    return { offers, winner: offers.find((o) => o.won) ?? offer };
  };
  // Parts were bid: the fill is composed of legs (docs/legs.md); otherwise the best whole bid wins, as here.
  if (winnable(ranked).some((o) => o.bid.sellAmount !== undefined)) {
    return (await decideLegs(ctx, ranked, forged)) ?? none();
  }
  for (const offer of winnable(ranked)) {
    if (!ctx.verifyBid(offer)) {
      forged.push(offer);
      continue;
    }
    const amounts = ctx.amountsOf(offer);
    if (signing.kind === "taker") {
      // Offers are ranked by what the recipient receives, so by output: when the best genuine one misses
      // the taker's price or minOut, all do. An order never fills below its price.
      if (terms.limit && !meetsLimit(terms.limit, amounts)) return none({ belowLimit: amounts.received });
      if (!ctx.hold(offer, amounts)) continue;
      const taker = signing.takerSigning(terms, { resolver: offer.resolver, amounts }) as JsonObject;
      const { offers, winner } = crowned(offer);
      return { offers, winner: { offer: winner, amounts, signing: taker, winnerSignature: null }, forged };
    }
    const node = ctx.nodes.get(resolverKey(offer.resolver));
    const release = node ? ctx.hold(offer, amounts) : null;
    if (!node || !release) continue;
    const build = () => signing.request(terms, { resolver: offer.resolver, amounts }, node, ctx.clock.now());
    // A corridor that just woke holds no chain state yet: its first read is under way, worth a short wait.
    const request = build() ?? (await Promise.race([ctx.fresh, ctx.clock.sleep(COLD_READ_WAIT_MS)]).then(build));
    // No fresh chain state to build the transaction with (its RPC is not answering): no quote now.
    if (!request) {
      release();
      return none({ unbuildable: true });
    }
    const signature = await ctx.askToSign(node.address, request.transaction);
    if (signature !== null && signing.verify(request, node, signature)) {
      const taker = signing.takerSigning(request, node, signature) as JsonObject;
      const { offers, winner } = crowned(offer);
      return { offers, winner: { offer: winner, amounts, signing: taker, winnerSignature: signature }, forged };
    }
    release();
    ctx.strike(node.address, signature === null ? "did not sign within 500 ms" : "signed something else");
  }
  return none();
}

/** Whether a limit round's bid meets the order: its output at least the taker's price, the recipient's share at least minOut. */
export function meetsLimit(
  limit: { minOut: string; limitAmount: string },
  amounts: { outputAmount: bigint; received: bigint },
): boolean {
  return amounts.outputAmount >= BigInt(limit.limitAmount) && amounts.received >= BigInt(limit.minOut);
}
