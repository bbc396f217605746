import type { ClientId } from "../limits";

/** Who holds the keeper's limit rounds' slots: they come with no client, and share as one (docs/security.md). */
export const KEEPER_ROUNDS: ClientId = "keeper";

/**
 * A corridor's auction slots (`maxAuctionsInFlight`) and who holds them (docs/security.md, "One client's
 * auctions hold the corridor"). A client holding `h` auctions gets another only while more than `h` slots
 * are free: alone it holds at most half the slots, `k` clients asking at once hold about `k / (k + 1)` of
 * them between them, and the last free slot goes only to a client holding none. Auctions are never cut
 * short, so the share is kept as slots are taken, not by taking them back.
 */
export class AuctionSlots {
  private readonly holders = new Map<ClientId, number>();
  private taken = 0;

  constructor(private readonly slots: number) {}

  /** Why `client` may not take a slot now (`full`: none is free; `share`: it holds its share), or null. */
  refusal(client: ClientId): "full" | "share" | null {
    const free = this.slots - this.taken;
    if (free <= 0) return "full";
    return free > (this.holders.get(client) ?? 0) ? null : "share";
  }

  /** How many slots `client` holds now. */
  heldBy(client: ClientId): number {
    return this.holders.get(client) ?? 0;
  }

  take(client: ClientId): void {
    this.taken += 1;
    this.holders.set(client, this.heldBy(client) + 1);
  }

  give(client: ClientId): void {
    this.taken -= 1;
    const held = this.heldBy(client) - 1;
    if (held > 0) this.holders.set(client, held);
    else this.holders.delete(client);
  }
}
