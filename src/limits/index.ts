/**
 * Per-client limits (docs/security.md, "Limits"): who a request counts against, and the buckets that count it.
 * The folder's face: other folders import only what this file names (docs/architecture.md, "Folders").
 */

export { API_KEY_PREFIX, hashApiKey, KEY_CACHE_MS, lookUpApiKey, newApiKey } from "./api-keys";
export { perPeriod, type Rate, type Spent, TokenBuckets } from "./buckets";
export { type ClientId, clientOfAddress, clientOfKey, ipv6Prefix64, LOCAL_CLIENT } from "./client";
export { overShare, type ShareRefusal } from "./corridor-share";
