/**
 * The floor's resolvers (bench/README.md, "The floor"), in a worker thread (bench/fleet-thread.ts):
 * `count` WebSockets to the floor's corridor, each answering every rfq with a number after the same fixed
 * delay as the relay's reference resolvers (bench/fleet-worker.ts). Nothing is priced, signed or checked.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { FloorBid, FloorRfq } from "./floor/protocol";

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

function connect(i: number): Promise<WebSocket> {
  const ws = new WebSocket(connectUrl);
  ws.addEventListener("message", (event) => {
    const rfq = JSON.parse(String(event.data)) as FloorRfq;
    setTimeout(() => ws.send(JSON.stringify(bidFor(i, rfq))), latencyMs);
  });
  return new Promise((resolve, reject) => {
    ws.addEventListener("open", () => resolve(ws), { once: true });
    ws.addEventListener("error", () => reject(new Error(`floor resolver ${i}: cannot connect to ${connectUrl}`)), {
      once: true,
    });
  });
}

const sockets = await Promise.all(Array.from({ length: count }, (_, i) => connect(i)));
parentPort?.postMessage("ready");
parentPort?.once("message", async () => {
  await Promise.all(
    sockets.map(
      (ws) =>
        new Promise<void>((resolve) => {
          ws.addEventListener("close", () => resolve(), { once: true });
          ws.close(1000, "bench over");
        }),
    ),
  );
  parentPort?.postMessage("stopped");
});
