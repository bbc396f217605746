import { afterEach, describe, expect, it, vi } from "vitest";
import { RecordBatch } from "../../src/db/record-batch";
import { BATCH_STATEMENTS, COALESCE_MS } from "../../src/db/write-behind";

/** Statements that are only their names, and a D1 that keeps each batch it is sent (refusing any with `bad`). */
const statements = (...names: string[]) => names as unknown as D1PreparedStatement[];
function fakeD1() {
  const batches: string[][] = [];
  const db = {
    batch: async (list: D1PreparedStatement[]) => {
      const names = list as unknown as string[];
      batches.push(names);
      if (names.includes("bad")) throw new Error("D1 refused the batch");
      return [];
    },
  } as unknown as D1Database;
  return { db, batches };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the keeper\'s record batch (docs/settlement.md, "The fast path")', () => {
  it("writes the records queued within COALESCE_MS in one D1 batch, in order", async () => {
    vi.useFakeTimers();
    const { db, batches } = fakeD1();
    const records = new RecordBatch(db);
    const a = records.write(statements("a1", "a2"));
    const b = records.write(statements("b1"));
    await vi.advanceTimersByTimeAsync(COALESCE_MS - 1);
    expect(batches).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await Promise.all([a, b]);
    expect(batches).toEqual([["a1", "a2", "b1"]]);
  });

  it("writes at once on flush, for a reader waiting on a record", async () => {
    vi.useFakeTimers();
    const { db, batches } = fakeD1();
    const records = new RecordBatch(db);
    const a = records.write(statements("a"));
    await records.flush();
    await a;
    expect(batches).toEqual([["a"]]);
    // The timer of the flushed batch is gone: nothing is written twice.
    await vi.advanceTimersByTimeAsync(COALESCE_MS);
    expect(batches).toHaveLength(1);
  });

  it("writes a batch of BATCH_STATEMENTS at once, without waiting", async () => {
    const { db, batches } = fakeD1();
    const records = new RecordBatch(db, 60_000);
    const many = Array.from({ length: BATCH_STATEMENTS }, (_, i) => `s${i}`);
    await records.write(statements(...many));
    expect(batches).toEqual([many]);
  });

  it("writes a refused batch again record by record: only the record D1 refuses fails", async () => {
    const { db, batches } = fakeD1();
    const records = new RecordBatch(db, 1);
    const good = records.write(statements("good"));
    const bad = records.write(statements("bad"));
    await expect(good).resolves.toBeUndefined();
    await expect(bad).rejects.toThrow("D1 refused");
    expect(batches).toEqual([["good", "bad"], ["good"], ["bad"]]);
  });
});
