import { env } from "cloudflare:test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { type LevelSampleRow, levelSamplesStatement, readSloppyLevels } from "../../src/db/level-samples";
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

/** Stores samples now, as a corridor's batch does 100 ms after its auctions. */
const insertLevelSamples = (rows: LevelSampleRow[]) => levelSamplesStatement(env.DB, rows).run();

describe("honest levels from the stored samples", () => {
  let made = 0;
  const samples = (address: string, bps: number, n: number) =>
    Array.from({ length: n }, () => ({
      resolver: address,
      quoteId: `q_stored_${made++}`,
      slippageBps: bps,
      at: Date.now(),
    }));

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
    expect(await readSloppyLevels(env.DB, Date.now() - 60_000, 20, 50)).toEqual([]);
    await insertLevelSamples([...samples(a, 60, 2), ...samples(b, 100, 1), ...samples(c, 100, 1)]);
    expect((await readSloppyLevels(env.DB, Date.now() - 60_000, 20, 50)).sort()).toEqual(
      [a, b, c].map((x) => x.toLowerCase()).sort(),
    );
  });

  it("stores an auction's samples in one statement, keyed by the lowercase address; a repeated sample keeps the first", async () => {
    const address = "0x00000000000000000000000000000000000000D4";
    const stored = samples(address, 7, 2);
    await insertLevelSamples(stored);
    const repeated = stored.slice(0, 1).map((r) => ({ ...r, slippageBps: 900 }));
    await insertLevelSamples([...repeated, ...samples(address, 8, 1)]);
    const { results } = await env.DB.prepare(
      "SELECT slippage_bps FROM level_samples WHERE resolver = ? ORDER BY slippage_bps",
    )
      .bind(address.toLowerCase())
      .all<{ slippage_bps: number }>();
    expect(results.map((r) => r.slippage_bps)).toEqual([7, 7, 8]);
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
