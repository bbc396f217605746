import { describe, expect, it } from "vitest";
import { LruCache } from "../../src/lru-cache";

describe("LruCache", () => {
  it("evicts the entry used longest ago, one at a time, never the others", () => {
    const cache = new LruCache<string, number>(3);
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("c", 3);
    expect(cache.get("a")).toBe(1); // a is now the most recently used
    cache.set("d", 4);
    expect(cache.has("b")).toBe(false);
    expect([cache.has("a"), cache.has("c"), cache.has("d")]).toEqual([true, true, true]);
    expect(cache.size).toBe(3);
  });

  it("makes a missing entry once and keeps it", () => {
    const cache = new LruCache<string, number>(2);
    let made = 0;
    const make = (k: string) => {
      made++;
      return k.length;
    };
    expect(cache.getOrMake("abc", make)).toBe(3);
    expect(cache.getOrMake("abc", make)).toBe(3);
    expect(made).toBe(1);
  });

  it("setting a cached key again does not evict another", () => {
    const cache = new LruCache<string, number>(2);
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("a", 10);
    expect([cache.get("a"), cache.get("b")]).toEqual([10, 2]);
  });

  it("refuses a capacity below one", () => {
    expect(() => new LruCache(0)).toThrow(RangeError);
  });
});
