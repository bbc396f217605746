/**
 * What both floors' resolver threads share (bench/floor-fleet-worker.ts, bench/floor-required-fleet-worker.ts):
 * a socket per resolver that answers each rfq after a fixed delay, and the thread's life: every socket
 * open, "ready" to the parent, then all closed when the parent says so, "stopped".
 */
import { parentPort } from "node:worker_threads";

/** Resolver `i`'s socket at `url`: each rfq it is sent answered with `answer`'s frame after `latencyMs`. */
export function floorSocket(
  i: number,
  url: string,
  latencyMs: number,
  answer: (rfq: string) => unknown | Promise<unknown>,
): Promise<WebSocket> {
  const ws = new WebSocket(url);
  ws.addEventListener("message", (event) => {
    setTimeout(async () => ws.send(JSON.stringify(await answer(String(event.data)))), latencyMs);
  });
  return new Promise((resolve, reject) => {
    ws.addEventListener("open", () => resolve(ws), { once: true });
    ws.addEventListener("error", () => reject(new Error(`floor resolver ${i}: cannot connect to ${url}`)), {
      once: true,
    });
  });
}

/** Opens `count` sockets, says "ready", and closes them all when the parent's message comes: "stopped". */
export async function serveFleet(count: number, open: (i: number) => Promise<WebSocket>): Promise<void> {
  const sockets = await Promise.all(Array.from({ length: count }, (_, i) => open(i)));
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
}
