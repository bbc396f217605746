import { type ApiKeyRow, apiKeyByHash } from "../db";
import { BoundedCache } from "./bounded-cache";

/**
 * Integrators' API keys (docs/operations.md, "API keys"): a key is 32 random bytes shown once when issued;
 * the relay keeps its SHA-256 only. The Worker looks a key up once a minute per isolate, so a key's
 * requests cost no D1 read on their path, and a revoked key stops counting within that minute. Known keys
 * are kept apart from unknown ones, so no flood of made-up keys pushes an integrator's key out.
 */
export const API_KEY_PREFIX = "rk_";
export const KEY_CACHE_MS = 60_000;
export const UNKNOWN_KEY_CACHE_MS = 5_000;

export function newApiKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let hex = "";
  for (const b of bytes) hex += b.toString(16).padStart(2, "0");
  return `${API_KEY_PREFIX}${hex}`;
}

export async function hashApiKey(key: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key)));
  let hex = "";
  for (const b of digest) hex += b.toString(16).padStart(2, "0");
  return hex;
}

/** Known keys: the 1,000 used most lately, each for a minute. */
const known = new BoundedCache<ApiKeyRow>(1_000, KEY_CACHE_MS);
/** Unknown keys: a repeat within a few seconds costs no D1 read; a key issued since is known within them. */
const unknown = new BoundedCache<true>(256, UNKNOWN_KEY_CACHE_MS);

/** The live key `key` names, read through this isolate's caches; null for an unknown or revoked key. */
export async function lookUpApiKey(db: D1Database, key: string, now = Date.now()): Promise<ApiKeyRow | null> {
  const hash = await hashApiKey(key);
  const hit = known.get(hash, now);
  if (hit) return hit;
  if (unknown.get(hash, now)) return null;
  const found = await apiKeyByHash(db, hash);
  if (found) known.set(hash, found, now);
  else unknown.set(hash, true, now);
  return found;
}
