/**
 * The floor's resolvers (bench/README.md, "The floor"), in a worker thread (bench/fleet-thread.ts):
 * `count` WebSockets to the floor's corridor, each answering every rfq with a number after the same fixed
 * delay as the relay's reference resolvers (bench/fleet-worker.ts). Nothing is priced, signed or checked.
 */
import { workerData } from "node:worker_threads";
import type { FloorBid, FloorRfq } from "./floor/protocol";
import { floorSocket, serveFleet } from "./floor-fleet-sockets";

export interface FloorFleetRequest {
  /** The floor Worker's base URL. */
  url: string;
  corridor: string;
  count: number;
  latencyMs: number;
}

const { url, corridor, count, latencyMs } = workerData as FloorFleetRequest;
const connectUrl = `${url.replace(/^http/, "ws")}/connect?corridor=${encodeURIComponent(corridor)}`;

/** Resolver `i` bids `i` bps under the amount sold, so the auction has a best reply. */
function bidFor(i: number, rfq: FloorRfq): FloorBid {
  const sold = BigInt((rfq.request as { sellAmount?: string }).sellAmount ?? "0");
  return { type: "bid", id: rfq.id, outputAmount: ((sold * BigInt(10_000 - i)) / 10_000n).toString() };
}

await serveFleet(count, (i) => floorSocket(i, connectUrl, latencyMs, (rfq) => bidFor(i, JSON.parse(rfq) as FloorRfq)));
