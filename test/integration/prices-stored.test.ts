import { env } from "cloudflare:test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import {
  type LevelDayRow,
  levelDaysStatement,
  pruneLevelDays,
  readLevelCounts,
  readSloppyLevels,
  sloppyLevelsStatement,
} from "../../src/db/level-days";
import { bucketOf, levelsSinceDay } from "../../src/levels/honesty";
import type { IndicativePrice } from "../../src/schemas/prices";
import { type Bidder, bidder, marketSellAmount } from "../support/bidder";
import {
  authenticate,
  connect,
  EVM,
  eventually,
  heartbeat,
  type TestSocket,
  untilInventoryChecked,
} from "../support/ws-client";

const app = createApp();
let unit = 0n;
beforeAll(async () => {
  unit = BigInt(await marketSellAmount((path) => app.request(path, {}, env)));
});
const ladder = (perUnit: bigint) => ({
  type: "levels",
  chainId: EVM.chainId,
  sellToken: EVM.cngn,
  buyToken: EVM.usdc,
  levels: [{ sellAmount: String(unit), outputAmount: String(perUnit) }],
});
let open: Bidder[] = [];
let closing: TestSocket[] = [];
afterEach(() => {
  for (const b of open) b.socket.close();
  for (const socket of closing) socket.close();
  open = [];
  closing = [];
});

/** Stores counts now, as a corridor's batch does 100 ms after its auctions. */
const insertLevelSamples = (rows: LevelDayRow[]) => levelDaysStatement(env.DB, rows).run();
const today = () => new Date().toISOString().slice(0, 10);
const since = () => levelsSinceDay(Date.now());

describe("honest levels from the stored day histograms", () => {
  /** `n` samples of `bps` today, on the EVM corridor. */
  const samples = (address: string, bps: number, n: number, corridor = "31337:cngn:usdc"): LevelDayRow[] => [
    { resolver: address, corridor, day: today(), bucketBps: bucketOf(bps), samples: n },
  ];

  it("names the resolvers whose stored median is above 50 bps over 20 samples or more", async () => {
    // Addresses of no node of this file.
    const [a, b, c] = [
      "0x00000000000000000000000000000000000000a1",
      "0x00000000000000000000000000000000000000b2",
      "0x00000000000000000000000000000000000000c3",
    ];
    await insertLevelSamples([...samples(a, 51, 10), ...samples(a, 0, 9)]);
    await insertLevelSamples([...samples(b, 0, 10), ...samples(b, 100, 10)]);
    await insertLevelSamples(samples(c, 100, 19));
    // a: 10 of 19 above 50 but under 20 samples; b: 10 of 20 at or under 50, the median is 0.
    expect(await readSloppyLevels(env.DB, since(), 20, 50)).toEqual([]);
    await insertLevelSamples([...samples(a, 60, 2), ...samples(b, 100, 1), ...samples(c, 100, 1)]);
    expect((await readSloppyLevels(env.DB, since(), 20, 50)).sort()).toEqual(
      [a, b, c].map((x) => x.toLowerCase()).sort(),
    );
  });

  it("adds an auction's counts to their day's buckets in one statement, keyed by the lowercase address, every corridor summed", async () => {
    const address = "0x00000000000000000000000000000000000000D4";
    await insertLevelSamples([...samples(address, 7, 2), ...samples(address, 900, 1)]);
    await insertLevelSamples([...samples(address, 8, 1), ...samples(address, 8, 3, "103:usdc:cngn")]);
    expect(await readLevelCounts(env.DB, address, since())).toEqual(
      expect.arrayContaining([
        { bucketBps: 10, samples: 6 },
        { bucketBps: 1_000, samples: 1 },
      ]),
    );
    const { results } = await env.DB.prepare("SELECT COUNT(*) AS n FROM level_days WHERE resolver = ?")
      .bind(address.toLowerCase())
      .all<{ n: number }>();
    expect(results[0]?.n).toBe(3);
    // Days before the window go with the next upkeep.
    await insertLevelSamples([
      { resolver: address, corridor: "31337:cngn:usdc", day: "2020-01-01", bucketBps: 10, samples: 5 },
    ]);
    expect((await readLevelCounts(env.DB, address, "2020-01-01")).reduce((n, c) => n + c.samples, 0)).toBe(12);
    await pruneLevelDays(env.DB, since());
    expect((await readLevelCounts(env.DB, address, "2020-01-01")).reduce((n, c) => n + c.samples, 0)).toBe(7);
  });

  it("keeps a row per resolver, corridor, day and bucket however many bids: the 10 s read stays that small", async () => {
    // 2,000 auctions of 10 resolvers, each sample one of five slippages, written as the corridor does.
    const resolvers = Array.from({ length: 10 }, (_, i) => `0x${(0xe0 + i).toString(16).padStart(40, "0")}`);
    for (let auction = 0; auction < 2_000; auction += 100) {
      const rows = Array.from({ length: 100 }, (_, i) => ({
        resolver: resolvers[(auction + i) % 10] as string,
        corridor: "31337:cngn:usdc",
        day: today(),
        bucketBps: bucketOf([0, 1, 3, 60, 10_000][Math.floor((auction + i) / 10) % 5] ?? 0),
        samples: 1,
      }));
      await insertLevelSamples(rows);
    }
    const rows = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM level_days WHERE resolver LIKE '0x00000000000000000000000000000000000000e%'",
    ).first<{ n: number }>();
    // 10 resolvers × 5 buckets, where a row per bid made 2,000.
    expect(rows?.n).toBe(50);
    const read = await sloppyLevelsStatement(env.DB, since(), 20, 50).all<{ resolver: string }>();
    expect(read.meta.rows_read).toBeLessThanOrEqual(100);
    // Each has 120 of its 200 samples at or under 50 bps: none is left out.
    expect(read.results.map((r) => r.resolver).filter((r) => resolvers.includes(r))).toEqual([]);
  });

  it("leaves out the ladder of a node whose stored samples fall short, though this corridor saw none of its bids", async () => {
    // A key of its own, so no other file's node has these samples.
    const account = privateKeyToAccount(generatePrivateKey());
    await insertLevelSamples(samples(account.address, 100, 20));
    const shady = { socket: await connect(), account };
    await authenticate(shady.socket, account, { name: "stored-shady" });
    await shady.socket.next("welcome");
    shady.socket.send(heartbeat());
    await untilInventoryChecked(account.address);
    const steady = await bidder(2, "stored-steady");
    open.push(steady);
    closing.push(shady.socket);
    shady.socket.send(ladder(1_020_000n));
    steady.socket.send(ladder(1_000_000n));
    // The corridor reads the stored verdict at start and every 10 s, behind its answers.
    const answer = await eventually(async () => {
      // Sent again as the check repeats, within 4 a second, so neither ladder lapses.
      await new Promise((r) => setTimeout(r, 300));
      shady.socket.send(ladder(1_020_000n));
      steady.socket.send(ladder(1_000_000n));
      const res = await app.request(
        `/v1/prices?sellToken=${EVM.cngn}&buyToken=${EVM.usdc}&sellAmount=${unit}`,
        {},
        env,
      );
      const body = (await res.json()) as IndicativePrice;
      expect(body).toMatchObject({ buyAmount: "1000000" });
      return body;
    }, 15_000);
    expect(answer.resolvers).toBe(1);
  }, 20_000);
});
