import { resolverKey } from "../ids";
import type { CorridorPort } from "./corridor-port";
import type { LiveAuction } from "./live-auction";
import { offersHash, storedOffers } from "./quote-row";
import { type RankedOffer, withoutOffers } from "./rank";
import { rejectMessage, replyError } from "./reply-frames";

// Bids are accepted unchecked, and their signatures checked once the auction has closed, where it matters
// then: the winner's on the quote's path, the others' after the taker's answer (docs/resolver-protocol.md,
// "When signatures are checked"; src/auction/house.ts, `afterTheAnswer`).

/** Whether the offer's bid signature is its node's over the rfq's commitment with its output. */
export function verifyBid(port: CorridorPort, live: LiveAuction, offer: RankedOffer): boolean {
  const node = live.nodes.get(resolverKey(offer.resolver));
  return node !== undefined && port.adapter.verifyBid(live.terms, offer.bid.outputAmount, node, offer.bid.signature);
}

/** A bid whose signature is not its node's: a rejected reply after all, which the node hears of, and a strike. */
export function disqualify(port: CorridorPort, live: LiveAuction, offer: RankedOffer): Promise<void> {
  live.auction.disqualify(resolverKey(offer.resolver));
  port.send(offer.resolver, replyError(live.auction.rfqId, "bad_signature", rejectMessage.bad_signature));
  return port.strike(
    offer.resolver,
    live.auction.rfqId,
    `bid on ${live.quoteId} with a forged signature`,
    live.quoteId,
  );
}

/**
 * The offers whose signatures were not checked before the answer, checked once the taker has it: a
 * forged one is rejected as on the quote's path, and a stored quote corrected to the offers that remain.
 */
export async function checkUnchecked(
  port: CorridorPort,
  live: LiveAuction,
  offers: RankedOffer[],
  checked: ReadonlySet<string>,
  stored: boolean,
): Promise<void> {
  const forged = offers.filter((o) => !checked.has(o.resolver) && !verifyBid(port, live, o));
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
