/**
 * Resolvers in a worker thread of their own, so their work does not share an event loop with the taker
 * whose latency a benchmark measures. The thread's script posts "ready" once its resolvers are
 * connected, and on "stop" stops them and posts "stopped" (bench/fleet-worker.ts,
 * bench/floor-fleet-worker.ts).
 */
import { Worker } from "node:worker_threads";

export interface FleetThread {
  /** Milliseconds the thread's event loop has been busy so far: its resolvers' work, signing included. */
  busyMs(): number;
  stop(): Promise<void>;
}

export async function startFleetThread(script: URL, workerData: unknown): Promise<FleetThread> {
  const worker = new Worker(script, { workerData, execArgv: ["--import", "tsx"] });
  await new Promise<void>((resolve, reject) => {
    worker.once("message", () => resolve());
    worker.once("error", reject);
  });
  return {
    busyMs: () => worker.performance.eventLoopUtilization().active,
    async stop() {
      const stopped = new Promise((r) => worker.once("message", r));
      worker.postMessage("stop");
      await stopped;
      await worker.terminate();
    },
  };
}
