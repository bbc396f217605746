import { type AuctionWrite, auctionStore, type CorridorPort } from "../src/auction";
import type { ChainAdapter, Corridor } from "../src/chains";
import type { RelayConfig } from "../src/config";
import type { CorridorCosts } from "../src/costs";
import type { CorridorPrices } from "../src/levels";
import type { CorridorNodes } from "../src/nodes";
import { type BandSubscription, bandAssetOf } from "../src/oracle";
import type { CorridorStanding } from "../src/resolvers";

/** The parts of a corridor object its auctions reach, and how it queues their writes. */
export interface CorridorParts {
  config: RelayConfig;
  corridor: Corridor;
  adapter: ChainAdapter;
  band: BandSubscription;
  connected: CorridorNodes;
  standing: CorridorStanding;
  costs: CorridorCosts;
  ladders: CorridorPrices;
  queue(write: AuctionWrite): Promise<void>;
  waitUntil(p: Promise<unknown>): void;
}

/** The auction house's port onto its corridor object (durable-objects/corridor.ts). */
export function auctionPortOf(o: CorridorParts): CorridorPort {
  const { config, corridor, adapter } = o;
  return {
    config,
    corridor,
    adapter,
    band: () => o.band.current(),
    assetOf: (token) => bandAssetOf(config, corridor.key, token, adapter.sameAddress),
    nodes: () => o.connected.list(),
    send: (address, frame) => o.connected.send(address, frame),
    chainCovers: (address, token, atLeast) => o.connected.covers(address, token, atLeast),
    standing: () => o.standing.get(),
    store: auctionStore(o.queue),
    strike: (resolver, event, why, quoteId) => o.standing.strike(resolver, event, why, quoteId),
    costs: o.costs,
    waitUntil: o.waitUntil,
    ladderAt: (...ask) => o.ladders.ladderAt(...ask),
    ladderBids: (quoteId, bids) => o.ladders.sampled(quoteId, bids, Date.now()),
  };
}
