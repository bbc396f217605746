import { describe, expect, it } from "vitest";
import { PauseSwitch } from "../../src/ops";
import { KeptValue } from "../../src/ops/kept-value";

/** An object's synchronous key-value storage in memory, counting its calls. */
function countedKv() {
  const map = new Map<string, unknown>();
  const counts = { get: 0, put: 0, delete: 0 };
  const kv = {
    get: (key: string) => {
      counts.get++;
      return map.get(key);
    },
    put: (key: string, value: unknown) => {
      counts.put++;
      map.set(key, value);
    },
    delete: (key: string) => {
      counts.delete++;
      return map.delete(key);
    },
  } as unknown as SyncKvStorage;
  return { kv, counts };
}

describe("KeptValue", () => {
  it("reads its key once, answers from memory after, and writes through", () => {
    const { kv, counts } = countedKv();
    const kept = new KeptValue<{ n: number }>(kv, "k");
    for (let i = 0; i < 10; i++) expect(kept.get()).toBeNull();
    kept.set({ n: 1 });
    expect(kept.get()).toEqual({ n: 1 });
    expect(counts).toEqual({ get: 1, put: 1, delete: 0 });
    // A new instance over the same storage (the object after a restart) reads what was written.
    expect(new KeptValue(kv, "k").get()).toEqual({ n: 1 });
    kept.clear();
    kept.clear();
    expect(kept.get()).toBeNull();
    expect(counts.delete).toBe(1);
    expect(new KeptValue(kv, "k").get()).toBeNull();
  });
});

describe("PauseSwitch", () => {
  it("answers every quote's check from memory and keeps the first pause across a restart", () => {
    const { kv, counts } = countedKv();
    const pauses = new PauseSwitch(kv);
    for (let i = 0; i < 100; i++) expect(pauses.current()).toBeNull();
    pauses.pause("maintenance", Date.UTC(2026, 10, 27));
    pauses.pause("again", Date.UTC(2026, 10, 28));
    expect(counts).toEqual({ get: 1, put: 1, delete: 0 });
    expect(new PauseSwitch(kv).current()).toEqual({ at: "2026-11-27T00:00:00.000Z", reason: "maintenance" });
    pauses.resume();
    expect(pauses.current()).toBeNull();
    expect(new PauseSwitch(kv).current()).toBeNull();
  });
});
