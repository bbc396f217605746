/**
 * A map that forgets: each entry lives `ttlMs`, and past `max` entries the one used longest ago goes, one
 * at a time, so a flood of new keys pushes out old ones without ever emptying what is in use
 * (docs/security.md, "The API-key cache emptied by unknown keys"). A Map keeps insertion order; a hit is moved to its end.
 */
export class BoundedCache<V> {
  private readonly entries = new Map<string, { value: V; at: number }>();

  constructor(
    private readonly max: number,
    private readonly ttlMs: number,
  ) {}

  /** The value kept for `key`, if it is younger than the TTL; marks it used. */
  get(key: string, now: number): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    this.entries.delete(key);
    if (now - hit.at >= this.ttlMs) return undefined;
    this.entries.set(key, hit);
    return hit.value;
  }

  set(key: string, value: V, now: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, at: now });
    while (this.entries.size > this.max) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
