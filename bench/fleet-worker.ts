/**
 * Runs reference resolvers in a worker thread, so their signing does not share an event loop with
 * the taker whose latency the benchmark measures.
 */
import { parentPort, workerData } from "node:worker_threads";
import { startResolverFleet, stopFleet } from "../test/support/reference-resolvers";
import { nativelySigning } from "./native-signer";
import { PART_SHARES, partBidder } from "./part-bidders";

export interface FleetRequest {
  relayUrl: string;
  count: number;
  latencyMs: number;
  /** Serve only corridors with this token. */
  token: string;
  /** And with this one too: one corridor (bench/floor-parts.ts). */
  otherToken?: string;
  /** The first resolver's anvil account; 1 unless given, so two fleets at once take different keys. */
  firstIndex?: number;
  /** How many of the fleet, its last ones, bid parts (bench/part-bidders.ts); none unless given. */
  parts?: { bidders: number; wholeSell: string; maxPremiumBps: number };
}

const { relayUrl, count, latencyMs, token, otherToken, firstIndex, parts } = workerData as FleetRequest;
const firstPart = count - (parts?.bidders ?? 0);
const serves = (t: { tokenA: string; tokenB: string }, x: string) =>
  [t.tokenA, t.tokenB].some((a) => a.toLowerCase() === x.toLowerCase());
const fleet = await startResolverFleet(relayUrl, {
  count,
  latencyMs,
  account: nativelySigning,
  firstIndex,
  corridors: (all) => all.filter((t) => serves(t, token) && (!otherToken || serves(t, otherToken))),
  own: (i, rate, chains) =>
    parts && i >= firstPart
      ? partBidder({
          rate,
          share: PART_SHARES[(i - firstPart) % PART_SHARES.length] as (typeof PART_SHARES)[number],
          wholeSell: BigInt(parts.wholeSell),
          maxPremiumBps: parts.maxPremiumBps,
          random: Math.random,
          sellToken: token,
          chains,
        })
      : {},
});
parentPort?.postMessage("ready");
parentPort?.once("message", async () => {
  await stopFleet(fleet);
  parentPort?.postMessage("stopped");
});
