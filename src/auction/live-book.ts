import { resolverKey } from "../ids";
import type { LiveAuction } from "./live-auction";
import type { LiveAuctions } from "./replies";

/**
 * A corridor's auctions open or recently closed, by rfq id: the auction house keeps them here, and the
 * corridor's nodes ask it which replies are awaited (the flood limit) and which rfqs are live, so both
 * are given this one book at construction.
 */
export class LiveBook extends Map<string, LiveAuction> implements LiveAuctions {
  /** Whether `rfqId` is an auction of this corridor, open or recently closed. */
  isLive(rfqId: string): boolean {
    return this.has(rfqId);
  }

  /** Whether `node` was asked in the live auction `rfqId` and has not answered it yet. */
  awaits(rfqId: string, node: string): boolean {
    const auction = this.get(rfqId)?.auction;
    return (auction?.asked.has(resolverKey(node)) ?? false) && !auction?.answered.has(resolverKey(node));
  }
}
