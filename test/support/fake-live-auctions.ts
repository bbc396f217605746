import type { LiveAuctions } from "../../src/auction/replies";

/**
 * The live auctions a node's replies may belong to (`LiveAuctions` of src/auction/replies.ts; the auction
 * house in production), as a test opens them: each rfq with the nodes it asked and has not heard from.
 */
export class FakeLiveAuctions implements LiveAuctions {
  private readonly live = new Map<string, Set<string>>();

  /** An auction `rfqId` is live and asked `addresses`. */
  open(rfqId: string, ...addresses: string[]): this {
    this.live.set(rfqId, new Set(addresses.map((a) => a.toLowerCase())));
    return this;
  }

  /** The node answered `rfqId`: it is no longer awaited there. */
  answered(rfqId: string, address: string): void {
    this.live.get(rfqId)?.delete(address.toLowerCase());
  }

  isLive(rfqId: string): boolean {
    return this.live.has(rfqId);
  }

  awaits(rfqId: string, address: string): boolean {
    return this.live.get(rfqId)?.has(address.toLowerCase()) ?? false;
  }
}
