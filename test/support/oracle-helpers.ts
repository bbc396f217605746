import { env, runInDurableObject } from "cloudflare:test";
import { ACTIVITY_KEY, SNAPSHOT_KEY } from "../../durable-objects/oracle";
import { loadConfig } from "../../src/config/load";
import type { Activity } from "../../src/oracle/activity";
import { oracleCorridors } from "../../src/oracle/band-corridors";
import type { Snapshot } from "../../src/oracle/snapshot";
import { publicNativeSources, publicRateSources } from "../../src/oracle/sources";
import { nativeAdapters, recordedRates, recordedSolRates } from "./oracle-fixtures";

/** The NGN sources of the integration configuration (oracle-config.ts) that answer normally. */
export const healthy = publicRateSources.map((s) => s.name);
/** Its native prices' sources, ETH/USD then SOL/USD, all answering normally. */
export const healthyNative = [...publicNativeSources("ETH"), ...publicNativeSources("SOL")].map((s) => s.name);
/** The ones that fail, each its own way. */
export const failing = ["quidax-down", "luno-slow", "remitano-garbled", "luno-stale", "quidax-outlier"];

/** The USD/NGN band the five healthy recorded responses make: median, extremes and count, worked out by hand. */
export function expectedBand() {
  const values = publicRateSources.map((s) => recordedRates[s.adapter].value).sort((a, b) => a - b);
  return { base: "USD", quote: "NGN", mid: values[2], low: values[0], high: values[4], sources: 5 };
}

/** The band of a native's three recorded dollar prices: median, extremes and count. */
export function expectedNativeBand(asset: "ETH" | "SOL") {
  const rates = asset === "ETH" ? recordedRates : recordedSolRates;
  const values = nativeAdapters.map((a) => rates[a].value).sort((a, b) => a - b);
  return { base: asset, quote: "USD", mid: values[1], low: values[0], high: values[2], sources: 3 };
}

export const corridors = () => oracleCorridors(loadConfig(env.RELAY_CONFIG));

/** An oracle of its own for one test: the class does not care about its name, only the Worker does. */
export const oracleNamed = (name: string) => env.ORACLE.get(env.ORACLE.idFromName(name));

type OracleStub = ReturnType<typeof oracleNamed>;

export const snapshotOf = (stub: OracleStub) =>
  runInDurableObject(stub, (_, state) => state.storage.kv.get<Snapshot>(SNAPSHOT_KEY) ?? null);

export const activityOf = (stub: OracleStub) =>
  runInDurableObject(stub, (_, state) => state.storage.kv.get<Activity>(ACTIVITY_KEY) ?? null);

export const alarmOf = (stub: OracleStub) => runInDurableObject(stub, (_, state) => state.storage.getAlarm());

/** Makes the last round look one interval old, as if its alarm were due now. */
export const ageLastRound = (stub: OracleStub, byMs = 10_000) =>
  runInDurableObject(stub, (_, state) => {
    const snapshot = state.storage.kv.get<Snapshot>(SNAPSHOT_KEY);
    if (!snapshot) throw new Error("no round yet");
    state.storage.kv.put(SNAPSHOT_KEY, { ...snapshot, at: snapshot.at - byMs });
    return snapshot.at - byMs;
  });

/** Rewrites who is using the oracle, e.g. to let reads and subscriptions lapse. */
export const setActivity = (stub: OracleStub, activity: Activity) =>
  runInDurableObject(stub, (_, state) => state.storage.kv.put(ACTIVITY_KEY, activity));
