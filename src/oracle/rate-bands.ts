import type { RelayConfig } from "../config";
import type { Band } from "../schemas";
import { oracleCorridors } from "./band-corridors";
import { nativeBandKeys } from "./native-bands";
import { pairKey } from "./types";

/** A band in `GET /v1/rates`: the corridor it is for, or null for a native price's band no corridor has. */
export type ListedBand = Band & { corridor: string | null };

/**
 * The bands `GET /v1/rates` lists (docs/oracle.md, "`GET /v1/rates`"): one per mapped corridor that has a
 * band, in configuration order, several corridors sharing a pair each listing it; then, once each with
 * `corridor: null`, the bands the native prices use that are no corridor's (ETH/USD, SOL/USD).
 */
export function listedBands(config: RelayConfig, bands: Readonly<Record<string, Band>>): ListedBand[] {
  const listed: ListedBand[] = [];
  const corridorPairs = new Set<string>();
  for (const c of oracleCorridors(config)) {
    const key = pairKey(c.pair);
    corridorPairs.add(key);
    const band = bands[key];
    if (band) listed.push({ corridor: c.key, ...band });
  }
  for (const key of nativeBandKeys(config, bands)) {
    const band = bands[key];
    if (band && !corridorPairs.has(key)) listed.push({ corridor: null, ...band });
  }
  return listed;
}
