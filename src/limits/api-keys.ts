import { type ApiKeyRow, apiKeyByHash } from "../db";

/**
 * Integrators' API keys (docs/security.md, "API keys"): a key is 32 random bytes shown once when issued;
 * the relay keeps its SHA-256 only. The Worker looks a key up once a minute per isolate, so a key's
 * requests cost no D1 read on their path, and a revoked key stops counting within that minute.
 */
export const API_KEY_PREFIX = "rk_";
export const KEY_CACHE_MS = 60_000;

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

const cache = new Map<string, { key: ApiKeyRow | null; at: number }>();
const MAX_CACHED = 1_000;

/** The live key `key` names, read through this isolate's cache; null for an unknown or revoked key. */
export async function lookUpApiKey(db: D1Database, key: string, now = Date.now()): Promise<ApiKeyRow | null> {
  const hash = await hashApiKey(key);
  const hit = cache.get(hash);
  if (hit && now - hit.at < KEY_CACHE_MS) return hit.key;
  const found = await apiKeyByHash(db, hash);
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(hash, { key: found, at: now });
  return found;
}
