/**
 * Runs reference resolvers in a worker thread, so their signing does not share an event loop with
 * the taker whose latency the benchmark measures.
 */
import { parentPort, workerData } from "node:worker_threads";
import { startResolverFleet, stopFleet } from "../test/support/reference-resolvers";
import { nativelySigning } from "./native-signer";

interface FleetRequest {
  relayUrl: string;
  count: number;
  latencyMs: number;
  /** Serve only corridors with this token. */
  token: string;
}

const { relayUrl, count, latencyMs, token } = workerData as FleetRequest;
const fleet = await startResolverFleet(relayUrl, {
  count,
  latencyMs,
  account: nativelySigning,
  corridors: (all) => all.filter((t) => [t.tokenA, t.tokenB].includes(token)),
});
parentPort?.postMessage("ready");
parentPort?.once("message", async () => {
  await stopFleet(fleet);
  parentPort?.postMessage("stopped");
});
