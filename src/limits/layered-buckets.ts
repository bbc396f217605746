import type { ApiKeyQuotas } from "../schemas";
import { type Rate, TokenBuckets } from "./buckets";
import type { ClientId } from "./client";

/**
 * Who a request counts against where every isolate sees the same count (docs/security.md, "Clients"):
 * its client, the IPv6 /48 it came from (none for IPv4, a key or another Worker's zone), and the key's
 * own quotas. Plain data: it crosses to an object as it is.
 */
export interface ClientAsk {
  client: ClientId;
  network?: ClientId | null;
  quotas?: ApiKeyQuotas;
}

/** A rate for each layer: the client's own, its /48's, and the relay's for every client together. */
export interface Layers {
  client: Rate;
  network: Rate;
  relay: Rate;
}

type Layer = keyof Layers;

/** The bucket of each layer a request is counted in, by key (the relay's one key is `relay`). */
const keysOf = (who: ClientAsk): [Layer, string][] => [
  ["client", who.client],
  ...(who.network ? [["network", who.network] as [Layer, string]] : []),
  ["relay", "relay"],
];

/** Token buckets in three layers: a client's, behind it its /48's, behind that the relay's. */
export class LayeredBuckets {
  private readonly layers: Record<Layer, TokenBuckets> = {
    client: new TokenBuckets(),
    network: new TokenBuckets(),
    relay: new TokenBuckets(),
  };

  /** The first layer with no token for `who`, and when it will have one (whole seconds); null when all have. */
  short(who: ClientAsk, now: number, rates: Layers): { layer: Layer; retryAfter: number } | null {
    for (const [layer, key] of keysOf(who)) {
      const spent = this.layers[layer].peek(key, now, rates[layer]);
      if (!spent.ok) return { layer, retryAfter: spent.retryAfter };
    }
    return null;
  }

  /** Spends a token of each of `who`'s layers; call it after `short` found none short. */
  take(who: ClientAsk, now: number, rates: Layers): void {
    for (const [layer, key] of keysOf(who)) this.layers[layer].take(key, now, rates[layer]);
  }

  /** Spends a token of each of `who`'s layers whatever they hold (into debt). */
  charge(who: ClientAsk, now: number, rates: Layers): void {
    for (const [layer, key] of keysOf(who)) this.layers[layer].charge(key, now, rates[layer]);
  }

  /** Whether `who`'s own layers (client and /48) have spent nothing they have not earned back. */
  clean(who: ClientAsk, now: number, rates: Layers): boolean {
    return keysOf(who).every(([layer, key]) => layer === "relay" || this.layers[layer].full(key, now, rates[layer]));
  }
}
