import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_ACCOUNTS, localPricer, startLocalResolvers } from "../../scripts/lib/local-stack";
import { ResolverClient } from "../../src/clients/resolver/client";
import { rpcInventory } from "../../src/clients/resolver/inventory";
import { anvilAccount } from "../../src/clients/resolver/keys";
import type { Pricer } from "../../src/clients/resolver/pricing";
import { chainsFromRecord, corridorsFromRecord, fetchRelayConfig } from "../../src/clients/resolver/relay-config";
import { indicativePrice } from "../../src/clients/taker/prices";
import { outputAt } from "../../src/levels/ladder";
import type { LevelsFrame } from "../../src/protocol/node-frames";
import type { IndicativePrice } from "../../src/schemas/prices";
import type { ResolverStanding } from "../../src/schemas/resolvers";
import { base, deployment, rpcUrl } from "./evm-chain";

/**
 * Indicative prices on the local stack (wrangler dev, anvil, real sockets): the two resolvers of `npm start`
 * stream ladders at their pricing, and two more stream ladders better than their bids.
 */

const { cngn, usdc } = deployment;
/** 1,580 cNGN: 1 USDC at the local band's mid. */
const SELL = 1_580_000_000n;
const pricesUrl = (sellAmount = SELL) =>
  `${base}/v1/prices?chainId=31337&sellToken=${cngn}&buyToken=${usdc}&sellAmount=${sellAmount}`;
const price = async () => {
  const res = await fetch(pricesUrl());
  return { status: res.status, body: (await res.json()) as IndicativePrice & { error?: string } };
};

/** `pricer`'s outputs made `bps` better. */
const better =
  (pricer: Pricer, bps: bigint): Pricer =>
  async (request) => {
    const decision = await pricer(request);
    return "decline" in decision ? decision : { outputAmount: (decision.outputAmount * (10_000n + bps)) / 10_000n };
  };

/** A reference resolver (anvil `index`, inventory read from anvil) bidding at the band's mid, with its own ladders. */
async function laddered(index: number, name: string, levels: { pricer: Pricer; everyMs?: number; ttlMs?: number }) {
  const record = await fetchRelayConfig(base);
  const chains = chainsFromRecord(record).filter((c) => c.kind === "evm");
  const corridors = corridorsFromRecord(record).filter((t) => chains.some((c) => c.chainId === t.chainId));
  const account = anvilAccount(index);
  const client = new ResolverClient({
    relayUrl: base,
    account,
    name,
    version: "e2e",
    signerType: "keyfile",
    chains,
    corridors,
    pricer: localPricer(0),
    inventory: rpcInventory({ rpcUrl, owner: account.address }),
    levels,
  });
  const ladders: LevelsFrame[] = [];
  client.on("sent", ({ frame }) => {
    if (frame.type === "levels" && frame.sellToken === cngn) ladders.push(frame);
  });
  client.start();
  return { client, ladders };
}

/** What the last cNGN → USDC ladder a client sent pays for SELL. */
const ladderValue = (ladders: readonly LevelsFrame[]) => {
  const last = ladders.at(-1);
  if (!last) throw new Error("no ladder sent yet");
  const rungs = last.levels.map((l) => ({ sellAmount: BigInt(l.sellAmount), outputAmount: BigInt(l.outputAmount) }));
  return outputAt(rungs, SELL);
};

let stack: ResolverClient[] = [];
const alphaLadders: LevelsFrame[] = [];
let sharp: Awaited<ReturnType<typeof laddered>>;
const rfqs: string[] = [];

beforeAll(async () => {
  stack = await startLocalResolvers(base, {
    rpcUrl,
    resolvers: [
      { index: LOCAL_ACCOUNTS.resolvers[0], name: "alpha", spreadBps: 0 },
      { index: LOCAL_ACCOUNTS.resolvers[1], name: "beta", spreadBps: 15 },
    ],
  });
  stack[0]?.on("sent", ({ frame }) => {
    if (frame.type === "levels" && frame.sellToken === cngn) alphaLadders.push(frame);
  });
  // sharp's ladder is 1 % better than the stack's pricing, and it bids at the stack's pricing.
  sharp = await laddered(LOCAL_ACCOUNTS.resolvers[2], "sharp", { pricer: better(localPricer(0), 100n) });
  for (const c of [...stack, sharp.client]) {
    c.on("frame", ({ frame }) => {
      if (frame.type === "rfq") rfqs.push(frame.rfqId);
    });
  }
});
afterAll(() => Promise.all([...stack, sharp.client].map((c) => c.stop())));

describe("GET /v1/prices from streamed ladders (wrangler dev, real sockets)", () => {
  it("answers the ladder 1 % better than the stack's, to its rounding, and asks no resolver", async () => {
    await expect
      .poll(
        async () => {
          const { status, body } = await price();
          return status === 200 && sharp.ladders.length > 0 && BigInt(body.buyAmount) === ladderValue(sharp.ladders);
        },
        { timeout: 20_000, interval: 250 },
      )
      .toBe(true);
    // alpha's ladders go out every 3 s: wait for one seen here.
    await expect.poll(() => alphaLadders.length, { timeout: 5_000 }).toBeGreaterThan(0);
    const { body } = await price();
    expect(body).toMatchObject({
      chainId: 31337,
      sellToken: cngn,
      buyToken: usdc,
      sellAmount: String(SELL),
      firm: false,
    });
    const alpha = ladderValue(alphaLadders);
    if (alpha === null) throw new Error("alpha's ladder does not cover the amount");
    // 1 % over the stack's best, within a base unit of each ladder's rounding.
    expect(Number((BigInt(body.buyAmount) * 10_000n) / alpha)).toBeGreaterThanOrEqual(10_098);
    expect(Number((BigInt(body.buyAmount) * 10_000n) / alpha)).toBeLessThanOrEqual(10_100);
    expect(BigInt(body.received)).toBe(BigInt(body.buyAmount) - BigInt(body.fee.amount) - BigInt(body.gasFee.amount));
    // The taker library reads the same price.
    const request = { chainId: 31337, sellToken: cngn, buyToken: usdc, sellAmount: String(SELL) };
    expect((await indicativePrice(base, request)).buyAmount).toBe(body.buyAmount);
    const before = rfqs.length;
    for (let i = 0; i < 5; i++) expect((await price()).status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect(rfqs.length).toBe(before);
  });

  it("drops a ladder once its ttlMs has passed", async () => {
    // brief sends one ladder 2 % better, living 2 s, and no other for a minute.
    const brief = await laddered(LOCAL_ACCOUNTS.resolvers[3], "brief", {
      pricer: better(localPricer(0), 200n),
      everyMs: 60_000,
      ttlMs: 2_000,
    });
    try {
      await expect
        .poll(async () => (await price()).body.buyAmount === String(ladderValue(brief.ladders)), {
          timeout: 20_000,
          interval: 100,
        })
        .toBe(true);
      const sentAt = Date.now();
      await expect
        .poll(async () => (await price()).body.buyAmount, { timeout: 5_000, interval: 100 })
        .toBe(String(ladderValue(sharp.ladders)));
      expect(Date.now() - sentAt).toBeLessThan(4_000);
    } finally {
      await brief.client.stop();
    }
  });

  it("measures bids 1 % under their own ladder at about 100 bps, and stops serving that ladder after 20 quotes", async () => {
    const taker = anvilAccount(LOCAL_ACCOUNTS.takers[1]).address;
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${base}/v1/quotes`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ sellToken: cngn, buyToken: usdc, sellAmount: String(SELL), taker }),
      });
      expect(res.status).toBe(200);
      // Within the quote limit of one client (10 a second).
      await new Promise((r) => setTimeout(r, 120));
    }
    const recordOf = async () =>
      (await (await fetch(`${base}/v1/resolvers/${sharp.client.address}`)).json()) as ResolverStanding;
    // The samples reach D1 behind each quote's answer.
    await expect.poll(async () => (await recordOf()).levels?.samples, { timeout: 10_000 }).toBeGreaterThanOrEqual(20);
    const record = await recordOf();
    expect(record.levels.p50SlippageBps).toBeGreaterThanOrEqual(95);
    expect(record.levels.p50SlippageBps).toBeLessThanOrEqual(100);
    expect(record.badges).not.toContain("honest_levels");
    // Its ladder is left out: the price is the stack's own again.
    const { body } = await price();
    expect(body.buyAmount).toBe(String(ladderValue(alphaLadders)));
  });
});
