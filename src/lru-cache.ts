/**
 * A cache of the most recently used entries, at most `capacity` of them: a new entry past it evicts the
 * one used longest ago, never the others (a Map keeps insertion order, and a hit moves its entry last).
 */
export class LruCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be a positive integer`);
  }

  get size(): number {
    return this.entries.size;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** The entry, now the most recently used; undefined when it is not cached. */
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /** Caches the entry as the most recently used, evicting the least recently used one when full. */
  set(key: K, value: V): void {
    this.entries.delete(key);
    if (this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, value);
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  /** The entry, made by `make` and cached when it is missing. */
  getOrMake(key: K, make: (key: K) => V): V {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    const made = make(key);
    this.set(key, made);
    return made;
  }
}
