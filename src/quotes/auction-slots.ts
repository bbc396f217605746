import type { ClientId } from "../limits";

/** Who holds the keeper's limit rounds' slots: they come with no client, and share as one (docs/security.md). */
export const KEEPER_ROUNDS: ClientId = "keeper";

/**
 * A corridor's auction slots (`maxAuctionsInFlight`) and who holds them (docs/security.md, "A silent
 * resolver and a few clients lock every taker out"). A client holding `h` auctions gets another only
 * while more than `2h` slots are free, so what it holds stays under half of what it leaves: alone it
 * holds at most a third of the slots (22 of 64), `k` clients asking together leave about `2 / (k + 2)` of
 * them free (13 of 64 for eight), and the last free slots go only to clients holding none. Auctions are
 * never cut short, so the share is kept as slots are taken, not by taking them back.
 */
export class AuctionSlots {
  private readonly holders = new Map<ClientId, number>();
  private taken = 0;

  constructor(private readonly slots: number) {}

  /** Why `client` may not take a slot now (`full`: none is free; `share`: it holds its share), or null. */
  refusal(client: ClientId): "full" | "share" | null {
    const free = this.slots - this.taken;
    if (free <= 0) return "full";
    return free > 2 * this.heldBy(client) ? null : "share";
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
