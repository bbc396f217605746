/**
 * The oracle (docs/oracle.md): rate sources and their polling, band maths, native prices, who keeps the
 * oracle polling, a corridor's band subscription.
 * The folder's face: other folders import only what this file names (docs/architecture.md, "Folders").
 */

export {
  type Activity,
  afterRead,
  afterSubscribe,
  isActive,
  isDue,
  isFresh,
  nextRunAt,
  noActivity,
  prune,
  RECOMPUTE_INTERVAL_MS,
  subscribers,
} from "./activity";
export { afterRound, type HealthBySource, planRound } from "./backoff";
export { bandAssetOf, chainTokenAssets, oracleCorridor, oracleCorridors } from "./band-corridors";
export { BandSubscription } from "./band-subscription";
export { nativePricesFor } from "./native-bands";
export { type NativePrices, routeBetween } from "./native-prices";
export { pollSources, rateSources } from "./poll";
export { type ListedBand, listedBands } from "./rate-bands";
export { sourceRates } from "./rate-sources";
export { buildSnapshot, type Snapshot, storedSnapshot } from "./snapshot";
export { adapterNames, publicNativeSources, publicRateSources } from "./sources";
export { pairKey, type SourceRate } from "./types";
