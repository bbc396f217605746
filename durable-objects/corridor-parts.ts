import { AuctionHouse, auctionChecksOf, auctionStore, auctionWrites, type Clock, LiveBook } from "../src/auction";
import { adapterFor, corridorOfKey } from "../src/chains";
import { loadConfig, recordsDb } from "../src/config";
import { corridorCostsOn } from "../src/costs";
import { WriteBehind } from "../src/db";
import type { Env } from "../src/env";
import { corridorPricesOn } from "../src/levels";
import { log } from "../src/log";
import { corridorNodesOn, NodeDoor, type NodeEventRoutes } from "../src/nodes";
import { oracleStub, Schedule } from "../src/objects";
import { CorridorControls } from "../src/ops";
import { BandSubscription, bandAssetOf } from "../src/oracle";
import { CorridorDesk, QuoteAdmission, StoredProofBook } from "../src/quotes";
import { CorridorStanding } from "../src/resolvers";
import { CorridorStreams, StreamWakeups } from "../src/streams";

/**
 * A corridor object's parts (docs/architecture.md, "The corridor object"), built once in this order, each
 * from the parts before it; the last, `frames`, routes what a node's frame raises to the part that owns it.
 */
export function corridorParts(ctx: DurableObjectState, env: Env, clock: Clock) {
  const config = loadConfig(env.RELAY_CONFIG);
  const corridor = corridorOfKey(config, ctx.id.name ?? "");
  if (!corridor) throw new Error(`not a corridor: ${ctx.id.name}`);
  const adapter = adapterFor(corridor.chain);
  const db = env.DB;
  /** Its quotes, offers and timelines: in its records' database (docs/capacity.md, "Records by corridor"). */
  const records = recordsDb(env, config, corridor.key);
  const waitUntil = (p: Promise<unknown>) => ctx.waitUntil(p);
  const assetOf = (token: string) => bandAssetOf(config, corridor.key, token, adapter.sameAddress);
  const controls = new CorridorControls(ctx.storage.kv, corridor.key);
  const subscribe = (key: string) => oracleStub(env).subscribe(key);
  const band = new BandSubscription({ config, corridorKey: corridor.key, kv: ctx.storage.kv, subscribe, waitUntil });
  const live = new LiveBook();
  const nodes = corridorNodesOn(ctx, { config, corridor, db, band, live });
  const standing = new CorridorStanding({ db, send: (address, frame) => nodes.send(address, frame) });
  /** The auctions' D1 writes, durable here first (docs/architecture.md, "Write-behind"). */
  const writes = new WriteBehind(ctx.storage.sql, records, auctionWrites, corridor.key);
  const readRates = () => oracleStub(env).nativePrices(corridor.chain.chainId);
  const costs = corridorCostsOn(corridor.chain, { db: records, readRates, waitUntil });
  const hub = new CorridorStreams({
    db,
    records,
    drain: () => writes.drain(),
    perCorridor: config.limits.streamsPerCorridor,
  });
  const jobs = {
    auth: { run: async () => nodes.closeUnauthenticated(clock.now()) },
    drain: { run: () => writes.drainOrRetryAt() },
    streams: { run: () => hub.tick() },
  };
  const schedule = new Schedule(ctx.storage, "corridor_schedule", jobs, (job, e) =>
    log.error("job_failed", { corridor: corridor.key, job, error: String(e) }),
  );
  const door = new NodeDoor(nodes, (at) => schedule.runBy("auth", at), clock);
  const streams = new StreamWakeups(hub, (at) => schedule.runBy("streams", at));
  const checks = auctionChecksOf({ config, corridor, adapter, band, assetOf, nodes, costs });
  const ladders = corridorPricesOn({ corridor, adapter, checks, standing, db, records, waitUntil });
  const store = auctionStore((write) => writes.queue(write, (at) => schedule.runBy("drain", at), waitUntil));
  const port = { config, corridor, adapter, band, assetOf, nodes, standing, ladders, store, costs, waitUntil };
  const house = new AuctionHouse(port, clock, live);
  const admission = new QuoteAdmission({ ...config, proofs: new StoredProofBook(ctx.storage.sql) });
  const desk = new CorridorDesk({ corridorKey: corridor.key, admission, controls, house, ladders, costs, clock });
  const active = () => {
    band.renew(clock.now());
    // Read ahead of the next auction, so none waits for D1 (src/resolvers/standing.ts).
    void standing.get(clock.now());
  };
  const frames: NodeEventRoutes = {
    authenticated: active,
    heartbeat: () => {
      active();
      void house.keepFresh(clock.now());
    },
    levels: ({ node, frame }) => nodes.refuseTo(node.address, ladders.receive(node.address, frame, clock.now())),
    reply: ({ reply }) => house.onReply(reply),
  };
  return { controls, band, nodes, standing, writes, schedule, door, streams, ladders, house, desk, frames };
}

export type CorridorParts = ReturnType<typeof corridorParts>;
