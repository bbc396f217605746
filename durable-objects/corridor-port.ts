import { type AuctionHouse, type AuctionWrite, auctionStore, type CorridorPort } from "../src/auction";
import type { ChainAdapter, Corridor } from "../src/chains";
import type { RelayConfig } from "../src/config";
import type { CorridorCosts } from "../src/costs";
import type { CorridorPrices } from "../src/levels";
import { type CorridorNodeEvents, type CorridorNodes, type CorridorNodesHost, chainChecks } from "../src/nodes";
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
  queue(write: AuctionWrite): Promise<void>;
  waitUntil(p: Promise<unknown>): void;
}

/**
 * The auction house's port onto its corridor object (durable-objects/corridor.ts), but for the ladders:
 * the auction's checks are built from it (`auctionChecksOf`), the ladders from those checks, and the
 * port is completed with the ladders (`withLadders`).
 */
export function auctionPortOf(o: CorridorParts): Omit<CorridorPort, "ladderAt" | "ladderBids"> {
  const { config, corridor, adapter } = o;
  return {
    config,
    corridor,
    adapter,
    band: () => o.band.current(),
    assetOf: (token) => bandAssetOf(config, corridor.key, token, adapter.sameAddress),
    nodes: () => o.connected.list(),
    send: (address, frame) => o.connected.send(address, frame),
    sendToEach: (addresses, frame) => o.connected.sendToEach(addresses, frame),
    chainCovers: (address, token, atLeast) => o.connected.covers(address, token, atLeast),
    standing: () => o.standing.get(),
    store: auctionStore(o.queue),
    strike: (resolver, event, why, quoteId) => o.standing.strike(resolver, event, why, quoteId),
    costs: o.costs,
    waitUntil: o.waitUntil,
  };
}

/** The port completed with the corridor's ladders, which were built from the port's checks. */
export function withLadders(
  port: Omit<CorridorPort, "ladderAt" | "ladderBids">,
  ladders: CorridorPrices,
): CorridorPort {
  return {
    ...port,
    ladderAt: (...ask) => ladders.ladderAt(...ask),
    ladderBids: (_quoteId, bids) => ladders.sampled(bids, Date.now()),
  };
}

/** What a node's frames raise (activity, a heartbeat, a ladder), dispatched to the object's parts. */
export function nodeEventsOf(o: {
  band: BandSubscription;
  standing: CorridorStanding;
  house: AuctionHouse;
  ladders: CorridorPrices;
}): CorridorNodeEvents {
  return {
    auctions: o.house,
    onActive: (now) => {
      o.band.renew(now);
      // Read ahead of the next auction, so none waits for D1 (src/resolvers/standing.ts).
      void o.standing.get(now);
    },
    onHeartbeat: (now) => void o.house.keepFresh(now),
    onLevels: (node, frame) => o.ladders.receive(node.address, frame, Date.now()),
  };
}

/** What a corridor's node sessions need of its object: its settings, D1, the band, and on-chain checks in its storage. */
export function nodesHostOf(
  ctx: DurableObjectState,
  o: { config: RelayConfig; corridor: Corridor; db: D1Database; band: BandSubscription },
): CorridorNodesHost {
  const { config, corridor, band } = o;
  return {
    corridorKey: corridor.key,
    requireRegistration: config.requireRegistration,
    rfqWindowMs: config.rfqWindowMs,
    limits: config.limits,
    db: o.db,
    band: () => band.current(),
    checks: chainChecks(ctx, corridor),
  };
}
