import { env } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import type { IndicativePrice } from "../../src/schemas/prices";
import type { ResolverStanding } from "../../src/schemas/resolvers";
import { type Bidder, bidder, marketSellAmount, quoteBody } from "../support/bidder";
import { EVM, eventually } from "../support/ws-client";

/**
 * Honest levels kept by what nodes do (docs/reliability.md, "Honest levels"): a node whose ladder covered
 * an rfq's amount and that declines it counts a worst-case sample, and a ladder whose value at the amount
 * rounds to 0 measures nothing and loses no other bidder's sample. Real sockets to the corridor object.
 */

const app = createApp();
const get = async <T>(path: string) => {
  const res = await app.request(path, {}, env);
  return { status: res.status, body: (await res.json()) as T & { error?: string } };
};
const pricesPath = (sellAmount: bigint) =>
  `/v1/prices?chainId=${EVM.chainId}&sellToken=${EVM.cngn}&buyToken=${EVM.usdc}&sellAmount=${sellAmount}`;

/** The market amount: 1 USDC of cNGN at the band's mid. */
let unit = 0n;
beforeAll(async () => {
  unit = BigInt(await marketSellAmount((path) => app.request(path, {}, env)));
});

const levels = (rungs: [bigint, bigint][]) => ({
  type: "levels",
  chainId: EVM.chainId,
  sellToken: EVM.cngn,
  buyToken: EVM.usdc,
  levels: rungs.map(([s, o]) => ({ sellAmount: String(s), outputAmount: String(o) })),
});

let open: Bidder[] = [];
afterEach(() => {
  for (const b of open) b.socket.close();
  open = [];
});

/** A connected node, registered so it has a record whatever the chain reads of it. */
async function registered(index: number, name: string): Promise<Bidder> {
  const b = await bidder(index, name);
  open.push(b);
  const res = await app.request(
    `/v1/admin/resolvers/${b.account.address}`,
    {
      method: "PUT",
      body: JSON.stringify({ name, registered: true }),
      headers: { "content-type": "application/json", authorization: "Bearer test-admin-token" },
    },
    env,
  );
  expect(res.status).toBe(200);
  return b;
}

const askQuote = () =>
  app.request(
    "/v1/quotes",
    {
      method: "POST",
      body: JSON.stringify(quoteBody({ sellAmount: String(unit) })),
      headers: { "content-type": "application/json" },
    },
    env,
  );

const recordOf = async (address: string) => (await get<ResolverStanding>(`/v1/resolvers/${address}`)).body;

describe("honest levels count what a node does with the amounts its ladder covered", () => {
  it("a node that declines the rfqs its ladder covers loses honest_levels, and its ladder stops being served", async () => {
    const b = await registered(2, "decliner");
    const ladder = levels([
      [unit, 1_000_000n],
      [unit * 10n, 10_000_000n],
    ]);
    b.socket.send(ladder);
    await eventually(async () => expect((await get(pricesPath(unit))).status).toBe(200));
    // 20 bids at its ladder's own price: 0 bps each, the badge earned.
    for (let i = 0; i < 20; i++) {
      if (i % 5 === 0) b.socket.send(ladder);
      const pending = askQuote();
      await b.bid(await b.nextRfq(), 1_000_000n);
      expect((await pending).status).toBe(200);
    }
    const honest = await eventually(async () => {
      const record = await recordOf(b.account.address);
      expect(record.levels.samples).toBe(20);
      return record;
    });
    expect(honest.badges).toContain("honest_levels");
    // Then it declines every rfq its ladder covers: 21 declines, more than half of its samples.
    for (let i = 0; i < 21; i++) {
      if (i % 5 === 0) b.socket.send(ladder);
      const pending = askQuote();
      const rfq = await b.nextRfq();
      b.socket.send({ type: "decline", rfqId: rfq.rfqId, reason: "no_inventory" });
      await pending;
    }
    const record = await eventually(async () => {
      const r = await recordOf(b.account.address);
      expect(r.levels.samples).toBe(41);
      return r;
    });
    expect(record.levels).toEqual({ samples: 41, p50SlippageBps: 10_000, p90SlippageBps: 10_000 });
    expect(record.badges).not.toContain("honest_levels");
    b.socket.send(ladder);
    await eventually(async () => {
      const { status, body } = await get(pricesPath(unit));
      expect(status).toBe(404);
      expect(body.error).toBe("no_prices");
    });
  }, 30_000);

  it("a ladder whose value at the amount rounds to 0 measures nothing, and every other bidder's sample is kept", async () => {
    const [h, z] = [await registered(0, "honest"), await registered(1, "zero")];
    h.socket.send(
      levels([
        [unit, 1_000_000n],
        [unit * 10n, 10_000_000n],
      ]),
    );
    // One base unit for twice the amount: what it pays for `unit` rounds down to nothing.
    z.socket.send(levels([[unit * 2n, 1n]]));
    await eventually(async () => expect((await get<IndicativePrice>(pricesPath(unit))).status).toBe(200));
    const pending = askQuote();
    const [hRfq, zRfq] = [await h.nextRfq(), await z.nextRfq()];
    await z.bid(zRfq, 999_000n);
    await h.bid(hRfq, 999_900n);
    expect((await pending).status).toBe(200);
    const record = await eventually(async () => {
      const r = await recordOf(h.account.address);
      expect(r.levels.samples).toBe(1);
      return r;
    });
    expect(record.levels).toEqual({ samples: 1, p50SlippageBps: 1, p90SlippageBps: 1 });
    expect((await recordOf(z.account.address)).levels.samples).toBe(0);
  });
});
