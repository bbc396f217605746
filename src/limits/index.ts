/**
 * Per-client limits (docs/security.md, "Limits"): who a request counts against, and the buckets that count it.
 * The folder's face: other folders import only what this file names (docs/architecture.md, "Folders").
 */

export { API_KEY_PREFIX, hashApiKey, KEY_CACHE_MS, lookUpApiKey, newApiKey, UNKNOWN_KEY_CACHE_MS } from "./api-keys";
export { BoundedCache } from "./bounded-cache";
export { perPeriod, type Rate, type Spent, TokenBuckets } from "./buckets";
export {
  type ClientId,
  clientOfAddress,
  clientOfKey,
  clientOfRequest,
  ipv6Prefix64,
  LOCAL_CLIENT,
  networkOfAddress,
  WORKERS_ADDRESS,
} from "./client";
export { overShare, type ShareRefusal } from "./corridor-share";
export { type ClientAsk, LayeredBuckets, type Layers } from "./layered-buckets";
export { SharedCounts } from "./shared-counts";
