import { resolverKey } from "../ids";
import type { CorridorPort } from "./corridor-port";
import type { LiveAuction } from "./live-auction";
import { offersHash, storedOffers } from "./quote-row";
import { type RankedOffer, withoutOffers } from "./rank";
import { rejectMessage, replyError } from "./reply-frames";

// Bids are accepted unchecked, and their signatures checked once the auction has closed, where it matters
// then: the winner's on the quote's path, a random sample of the others' after the taker's answer
// (docs/resolver-protocol.md, "When signatures are checked"; src/auction/house.ts, `afterTheAnswer`).

/** Whether the offer's bid signature is its node's over the rfq's commitment with its output (and its part). */
export function verifyBid(port: CorridorPort, live: LiveAuction, offer: RankedOffer): boolean {
  const keys = live.nodes.get(resolverKey(offer.resolver));
  const { outputAmount, signature, sellAmount } = offer.bid;
  return keys !== undefined && port.adapter.verifyBid(live.terms, outputAmount, keys, signature, sellAmount);
}

/** `verifyBid` of each offer, in order, checked together (src/chains/adapter.ts, `verifyBids`). */
function verifyBids(port: CorridorPort, live: LiveAuction, offers: readonly RankedOffer[]): boolean[] {
  const nodes = offers.map((o) => live.nodes.get(resolverKey(o.resolver)));
  const bids = offers.flatMap((o, i) => {
    const keys = nodes[i];
    const { outputAmount, signature, sellAmount } = o.bid;
    return keys ? [{ outputAmount, keys, signature, sellAmount }] : [];
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
 * (`sampleBids` above): a forged one is rejected as on the quote's path, and a stored quote
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

/**
 * Which of an auction's unchecked bids have their signatures checked after the answer
 * (docs/resolver-protocol.md, "When signatures are checked"): at most `count` of them, drawn uniformly at
 * random, so that an auction's checks do not grow with its bidders and a bidder cannot tell which of its bids
 * will be checked. A bidder among n is checked in an auction with probability count/n (1 when n ≤ count); a
 * forged bid caught is rejected and struck as every forged bid is (src/auction/bid-signatures.ts).
 */
export function sampleBids<T>(bids: readonly T[], count: number, randomBelow: (n: number) => number): T[] {
  const pool = [...bids];
  const take = Math.min(count, pool.length);
  // The first `take` steps of a Fisher–Yates shuffle: each subset of `take` bids is equally likely.
  for (let i = 0; i < take; i++) {
    const j = i + randomBelow(pool.length - i);
    [pool[i], pool[j]] = [pool[j] as T, pool[i] as T];
  }
  return pool.slice(0, take);
}

/** A uniform integer in [0, n), from the runtime's cryptographic source: bidders cannot predict the draw. */
export function secureRandomBelow(n: number): number {
  const [word] = crypto.getRandomValues(new Uint32Array(1));
  // 2³² is a multiple of no n here but the bias (n / 2³²) is far below any auction's sample.
  return (word as number) % n;
}
