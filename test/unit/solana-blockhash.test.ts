import { Connection } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SolanaHarness, startSolanaHarness } from "../../scripts/lib/solana-harness/server";
import {
  BlockhashKeeper,
  MAX_AGE_MS,
  REFRESH_EVERY_MS,
  type RecentBlockhash,
  readLatestBlockhash,
} from "../../src/chains/solana/blockhash";

describe("readLatestBlockhash, against the local Solana chain", () => {
  let harness: SolanaHarness;
  beforeAll(async () => {
    harness = await startSolanaHarness({ port: 0, slotMs: 3_600_000 });
  });
  afterAll(async () => {
    await harness?.stop();
  });

  it("reads what a web3.js Connection reads, and follows the chain", async () => {
    const read = await readLatestBlockhash(harness.url);
    const seen = await new Connection(harness.url, "confirmed").getLatestBlockhash("confirmed");
    expect(read).toMatchObject(seen);
    harness.chain.advance(1);
    expect((await readLatestBlockhash(harness.url)).blockhash).not.toBe(read.blockhash);
  });

  it("fails with the reason when nothing answers", async () => {
    await expect(readLatestBlockhash("http://127.0.0.1:9/")).rejects.toThrow();
  });
});

describe("BlockhashKeeper", () => {
  const hash = (at: number): RecentBlockhash => ({ blockhash: `h${at}`, lastValidBlockHeight: 150, at });

  it("reads at most every REFRESH_EVERY_MS, one read at a time, and never on current()", async () => {
    let reads = 0;
    let now = 1_000_000;
    const keeper = new BlockhashKeeper(async () => {
      reads++;
      return hash(now);
    });
    expect(keeper.current(now)).toBeNull();
    await Promise.all([keeper.refresh(now), keeper.refresh(now)]);
    expect(reads).toBe(1);
    expect(keeper.current(now)?.blockhash).toBe(`h${now}`);
    now += REFRESH_EVERY_MS - 1;
    await keeper.refresh(now);
    expect(reads).toBe(1);
    now += 1;
    await keeper.refresh(now);
    expect(reads).toBe(2);
    expect(keeper.current(now)?.blockhash).toBe(`h${now}`);
  });

  it("serves a blockhash for MAX_AGE_MS, keeps it through failed reads, then serves none", async () => {
    let fail = false;
    const errors: unknown[] = [];
    const keeper = new BlockhashKeeper(
      async () => {
        if (fail) throw new Error("rpc down");
        return hash(0);
      },
      (e) => errors.push(e),
    );
    await keeper.refresh(0);
    fail = true;
    await keeper.refresh(REFRESH_EVERY_MS);
    expect(errors).toHaveLength(1);
    expect(keeper.current(MAX_AGE_MS)?.blockhash).toBe("h0");
    expect(keeper.current(MAX_AGE_MS + 1)).toBeNull();
  });
});
