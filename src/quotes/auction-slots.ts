import type { Clock } from "../auction";
import type { ClientId } from "../limits";

/** Who holds the keeper's limit rounds' slots: they come with no client, and share as one (docs/security.md). */
export const KEEPER_ROUNDS: ClientId = "keeper";

/** Why a client gets no slot: none is free, or the last free one is kept for a client holding none. */
export type SlotRefusal = "full" | "last";

interface Waiter {
  client: ClientId;
  settle(refusal: SlotRefusal | null): void;
}

interface Weighed {
  waiter: Waiter;
  weight: number;
}

/**
 * A corridor's auction slots (`maxAuctionsInFlight`) and who holds them (docs/security.md, "A silent
 * resolver and a few clients lock every taker out"). Auctions are never cut short, so the slots are shared
 * as they are handed out: a request that finds none free waits up to `waitMs` (one auction window, within
 * which every slot held comes free) in a queue of as many places as slots, and each slot given back goes to
 * the lightest waiting request (its client's slots and requests waiting ahead of it), the earliest among equals. Holdings so even out however fast
 * each client asks, and a client that asks less than its share is served first. The last free slot goes
 * only to a client holding none, so no client takes every slot; a full queue gives the place of the latest
 * of its heaviest clients to a lighter one.
 */
export class AuctionSlots {
  private readonly holders = new Map<ClientId, number>();
  private readonly waiting: Waiter[] = [];
  private taken = 0;

  constructor(
    private readonly slots: number,
    private readonly waitMs: number,
    private readonly clock: Pick<Clock, "after">,
  ) {}

  /**
   * Takes a slot for `client`: null once taken (at once when it may), else its wait, which settles null
   * once a slot is taken for it or with the refusal when its wait ends without one.
   */
  claim(client: ClientId): Promise<SlotRefusal | null> | null {
    const refusal = this.queue(client);
    if (refusal !== undefined) return refusal === null ? null : Promise.resolve(refusal);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        client,
        settle: (refusal) => {
          cancel();
          resolve(refusal);
        },
      };
      const cancel = this.clock.after(this.waitMs, () => {
        this.drop(waiter);
        waiter.settle(this.refusal(client) ?? "full");
      });
      this.waiting.push(waiter);
    });
  }

  /** Gives `client`'s slot back, and hands it to the waiting client holding the fewest. */
  give(client: ClientId): void {
    this.taken -= 1;
    const held = this.heldBy(client) - 1;
    if (held > 0) this.holders.set(client, held);
    else this.holders.delete(client);
    this.handOut();
  }

  /** How many slots `client` holds now. */
  heldBy(client: ClientId): number {
    return this.holders.get(client) ?? 0;
  }

  /**
   * Takes a slot for `client` now (null), refuses it now (a refusal: the queue is full of clients holding no
   * more than it), or leaves it to wait (undefined), in the place of the heaviest waiting when the queue is full.
   */
  private queue(client: ClientId): SlotRefusal | null | undefined {
    // No waiting client may take a slot now (each give hands out what it can), so one this client may
    // take now is not owed to a lighter one.
    if (this.refusal(client) === null) {
      this.take(client);
      return null;
    }
    if (this.waiting.length >= this.slots) {
      const order = this.order();
      const heaviest = order.at(-1) as Weighed;
      const weight = this.heldBy(client) + this.waiting.filter((w) => w.client === client).length;
      if (heaviest.weight <= weight) return this.refusal(client) ?? "full";
      this.drop(heaviest.waiter);
      heaviest.waiter.settle(this.refusal(heaviest.waiter.client) ?? "full");
    }
    return undefined;
  }

  /** Hands free slots to waiting clients, the fewest held first, while there are any they may take. */
  private handOut(): void {
    for (const { waiter: next } of this.order()) {
      if (this.refusal(next.client) !== null) return;
      this.drop(next);
      this.take(next.client);
      next.settle(null);
    }
  }

  /**
   * The waiting requests, lightest first, the earliest among equals (the sort is stable): a request weighs
   * what its client holds and the client's requests waiting ahead of it, so a client's many requests
   * waiting weigh as the slots they would take.
   */
  private order(): Weighed[] {
    const ahead = new Map<ClientId, number>();
    const weighed = this.waiting.map((waiter) => {
      const before = ahead.get(waiter.client) ?? 0;
      ahead.set(waiter.client, before + 1);
      return { waiter, weight: this.heldBy(waiter.client) + before };
    });
    return weighed.sort((a, b) => a.weight - b.weight);
  }

  private refusal(client: ClientId): SlotRefusal | null {
    const free = this.slots - this.taken;
    if (free <= 0) return "full";
    return free > 1 || this.heldBy(client) === 0 ? null : "last";
  }

  private take(client: ClientId): void {
    this.taken += 1;
    this.holders.set(client, this.heldBy(client) + 1);
  }

  private drop(waiter: Waiter): void {
    const at = this.waiting.indexOf(waiter);
    if (at >= 0) this.waiting.splice(at, 1);
  }
}
