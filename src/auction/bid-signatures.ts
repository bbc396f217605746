import { resolverKey } from "../ids";
import { sampleBids, secureRandomBelow } from "./bid-sample";
import type { CorridorPort } from "./corridor-port";
import type { LiveAuction } from "./live-auction";
import { offersHash, storedOffers } from "./quote-row";
import { type RankedOffer, withoutOffers } from "./rank";
import { rejectMessage, replyError } from "./reply-frames";

// Bids are accepted unchecked, and their signatures checked once the auction has closed, where it matters
// then: the winner's on the quote's path, a random sample of the others' after the taker's answer
// (docs/resolver-protocol.md, "When signatures are checked"; src/auction/house.ts, `afterTheAnswer`).

/** Whether the offer's bid signature is its node's over the rfq's commitment with its output. */
export function verifyBid(port: CorridorPort, live: LiveAuction, offer: RankedOffer): boolean {
  const keys = live.nodes.get(resolverKey(offer.resolver));
  return keys !== undefined && port.adapter.verifyBid(live.terms, offer.bid.outputAmount, keys, offer.bid.signature);
}

/** `verifyBid` of each offer, in order, checked together (src/chains/adapter.ts, `verifyBids`). */
function verifyBids(port: CorridorPort, live: LiveAuction, offers: readonly RankedOffer[]): boolean[] {
  const nodes = offers.map((o) => live.nodes.get(resolverKey(o.resolver)));
  const bids = offers.flatMap((o, i) => {
    const keys = nodes[i];
    return keys ? [{ outputAmount: o.bid.outputAmount, keys, signature: o.bid.signature }] : [];
  });
  const checked = port.adapter.verifyBids(live.terms, bids);
  let next = 0;
  return nodes.map((keys) => keys !== undefined && checked[next++] === true);
}

/** A bid whose signature is not its node's: a rejected reply after all, which the node hears of, and a strike. */
export function disqualify(port: CorridorPort, live: LiveAuction, offer: RankedOffer): Promise<void> {
  live.auction.disqualify(resolverKey(offer.resolver));
  port.nodes.send(offer.resolver, replyError(live.auction.rfqId, "bad_signature", rejectMessage.bad_signature));
  return port.standing.strike(
    offer.resolver,
    live.auction.rfqId,
    `bid on ${live.quoteId} with a forged signature`,
    live.quoteId,
  );
}

/**
 * Of the offers whose signatures were not checked before the answer (losing, out-of-band and demoted
 * alike), at most `limits.bidChecksAfterAnswer` drawn at random are checked once the taker has it
 * (src/auction/bid-sample.ts): a forged one is rejected as on the quote's path, and a stored quote
 * corrected to the offers that remain. The others are shown as they were bid.
 */
export async function checkUnchecked(
  port: CorridorPort,
  live: LiveAuction,
  offers: RankedOffer[],
  checked: ReadonlySet<string>,
  stored: boolean,
): Promise<void> {
  const unchecked = sampleBids(
    offers.filter((o) => !checked.has(o.resolver)),
    port.config.limits.bidChecksAfterAnswer,
    secureRandomBelow,
  );
  const verdicts = verifyBids(port, live, unchecked);
  const forged = unchecked.filter((_, i) => !verdicts[i]);
  if (forged.length === 0) return;
  const strikes = forged.map((o) => disqualify(port, live, o));
  if (!stored) {
    await Promise.all(strikes);
    return;
  }
  const kept = storedOffers(withoutOffers(offers, forged));
  await Promise.all([
    ...strikes,
    port.store.correctOffers(live.quoteId, kept, live.auction.replies(), offersHash(kept)),
  ]);
}
