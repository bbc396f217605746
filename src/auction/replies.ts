import type { NodeSession } from "../nodes";
import type { BidFrame, DeclineFrame, SignedFrame } from "../protocol";

/**
 * What passes between a corridor's node sessions and its auctions (docs/resolver-protocol.md): the
 * sessions hand each reply that concerns an auction to the auction house, and ask it which auctions are
 * live. The auction's own types, so the auction is read in one folder.
 */

/** A node's reply to an auction, for the auction house. */
export type AuctionReply =
  | { node: NodeSession; frame: BidFrame | DeclineFrame | SignedFrame }
  | { node: NodeSession; malformed: { rfqId: string; message: string } };

/** The live auctions (the auction house): which auctions a reply may belong to, for the flood limit and malformed replies. */
export interface LiveAuctions {
  isLive(rfqId: string): boolean;
  /** Whether the node was asked `rfqId` and has not answered it yet. */
  awaits(rfqId: string, address: string): boolean;
}
