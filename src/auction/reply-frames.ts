import { resolverKey } from "../ids";
import type { RelayFrame } from "../protocol";
import type { CorridorPort } from "./corridor-port";
import type { LiveAuction } from "./live-auction";
import type { RankedOffer } from "./rank";

/**
 * The `error` frame a node gets about one of its replies (`bid`, `decline`, `signed`) that does not count
 * or is rejected, naming the rfq it answered (docs/resolver-protocol.md, "Auctions").
 */
export const replyError = (rfqId: string, code: string, message: string): RelayFrame => ({
  type: "error",
  code,
  message,
  rfqId,
});

/** A reply that cannot count (`Auction.claim`): its code, and what the node is told. */
export const claimError = { not_asked: "not_asked", duplicate: "duplicate_bid", late: "late_bid" } as const;
export const claimMessage = {
  not_asked: "this node was not asked for this rfq",
  duplicate: "only the first reply to an rfq counts",
  late: "the auction had closed",
} as const;

/** A bid that counts as rejected, by code: what the node is told. */
export const rejectMessage = {
  expired_bid: "the bid expired before the auction closed",
  below_fees: "the output does not cover the fees",
  insufficient_inventory: "the last heartbeat or on-chain read does not show enough balance and allowance",
  bad_signature: "the signature is not the node's over the rfq's toSign",
  part_not_taken: "this rfq is filled by whole bids only: its chain or its kind takes no parts",
  part_too_large: "the part sells more than the rfq's sellAmount",
  part_below_minimum: "the part sells less than the sold token's minLegSellAmount",
} as const;

/** Once the auction is decided, every node that bid hears whether it won, and its rank (null for a rejected bid). */
export function sendResults(port: CorridorPort, live: LiveAuction, offers: readonly RankedOffer[]): void {
  const rankOf = new Map(offers.map((o) => [resolverKey(o.resolver), o]));
  for (const address of live.auction.bidders) {
    const node = live.nodes.get(address);
    if (!node) continue;
    const offer = rankOf.get(address);
    port.nodes.send(node.address, {
      type: "result",
      rfqId: live.auction.rfqId,
      won: offer?.won ?? false,
      rank: offer?.rank ?? null,
    });
  }
}
