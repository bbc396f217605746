import { LruCache } from "../lru-cache";

/**
 * A map that forgets: each entry lives `ttlMs`, and past `max` entries the one used longest ago goes, one
 * at a time, so a flood of new keys pushes out old ones without ever emptying what is in use
 * (docs/security.md, "The API-key cache emptied by unknown keys").
 */
export class BoundedCache<V> {
  private readonly entries: LruCache<string, { value: V; at: number }>;

  constructor(
    max: number,
    private readonly ttlMs: number,
  ) {
    this.entries = new LruCache(max);
  }

  /** The value kept for `key`, if it is younger than the TTL; marks it used. */
  get(key: string, now: number): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (now - hit.at < this.ttlMs) return hit.value;
    this.entries.delete(key);
    return undefined;
  }

  set(key: string, value: V, now: number): void {
    this.entries.set(key, { value, at: now });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
