import { env } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import type { IndicativeLadder, IndicativePrice } from "../../src/schemas/prices";
import type { Quote } from "../../src/schemas/quote";
import type { ResolverStanding } from "../../src/schemas/resolvers";
import { type Bidder, bidder, marketSellAmount, quoteBody } from "../support/bidder";
import { EVM, eventually } from "../support/ws-client";

const app = createApp();
const get = async <T>(path: string) => {
  const res = await app.request(path, {}, env);
  return { status: res.status, body: (await res.json()) as T & { error?: string; message?: string } };
};
const pricesPath = (sellAmount?: string) =>
  `/v1/prices?chainId=${EVM.chainId}&sellToken=${EVM.cngn}&buyToken=${EVM.usdc}${sellAmount ? `&sellAmount=${sellAmount}` : ""}`;

/** The market amount: 1 USDC of cNGN at the band's mid. */
let unit = 0n;
beforeAll(async () => {
  unit = BigInt(await marketSellAmount((path) => app.request(path, {}, env)));
});

/** A ladder of cNGN → USDC paying `perUnit` USDC base units per market unit, at 1 and 10 units. */
const ladder = (perUnit: bigint, extra: Record<string, unknown> = {}) => ({
  type: "levels",
  chainId: EVM.chainId,
  sellToken: EVM.cngn,
  buyToken: EVM.usdc,
  levels: [
    { sellAmount: String(unit), outputAmount: String(perUnit) },
    { sellAmount: String(unit * 10n), outputAmount: String(perUnit * 10n) },
  ],
  ...extra,
});

let open: Bidder[] = [];
afterEach(() => {
  for (const b of open) b.socket.close();
  open = [];
});
async function node(index: number, name: string): Promise<Bidder> {
  const b = await bidder(index, name);
  open.push(b);
  return b;
}

describe("levels frames: refused with a code, never stored", () => {
  it.each([
    ["an amount that is not a base-unit integer", { levels: [{ sellAmount: "1.5", outputAmount: "1" }] }, "bad_levels"],
    [
      "more than 20 rungs",
      { levels: Array.from({ length: 21 }, (_, i) => ({ sellAmount: String(i + 1), outputAmount: "1" })) },
      "bad_levels",
    ],
    ["a ttlMs above 10000", { ttlMs: 10_001 }, "bad_levels"],
    [
      "unsorted rungs",
      {
        levels: [
          { sellAmount: "2000", outputAmount: "2" },
          { sellAmount: "1000", outputAmount: "1" },
        ],
      },
      "levels_unsorted",
    ],
    [
      "a better rate for more by a base unit of the smaller rung",
      {
        levels: [
          { sellAmount: "1000", outputAmount: "1" },
          { sellAmount: "2000", outputAmount: "4" },
        ],
      },
      "levels_rate_improves",
    ],
    ["another corridor's tokens", { buyToken: EVM.cngn }, "levels_wrong_corridor"],
    ["a rung paying nothing", { levels: [{ sellAmount: "1000", outputAmount: "0" }] }, "levels_zero_amount"],
    ["a rung number of 79 digits", { levels: [{ sellAmount: "1".repeat(79), outputAmount: "1" }] }, "bad_levels"],
  ])("refuses %s, and the socket stays open", async (_what, over, code) => {
    const b = await node(2, "bad-ladders");
    b.socket.send(ladder(1_000_000n, over));
    expect(await b.socket.next("error")).toMatchObject({ type: "error", code });
    expect((await get(pricesPath(String(unit)))).status).toBe(404);
    // Still connected: a good ladder is taken afterwards.
    b.socket.send(ladder(1_000_000n));
    await eventually(async () => expect((await get(pricesPath(String(unit)))).status).toBe(200));
  });

  it("takes a flat ladder computed in integers, though flooring makes its larger rung a hair better", async () => {
    const b = await node(2, "flat");
    // One rate, floored at each rung: about 1,000,000.5 → 1,000,000 and 10,000,005 → 10,000,005.
    const s1 = unit + unit / 2_000_000n;
    const s2 = s1 * 10n;
    const [o1, o2] = [(s1 * 1_000_000n) / unit, (s2 * 1_000_000n) / unit];
    expect(o2 * s1).toBeGreaterThan(o1 * s2);
    b.socket.send(
      ladder(0n, {
        levels: [
          { sellAmount: String(s1), outputAmount: String(o1) },
          { sellAmount: String(s2), outputAmount: String(o2) },
        ],
      }),
    );
    const { body } = await eventually(async () => {
      const r = await get<IndicativePrice>(pricesPath(String(s2)));
      expect(r.status).toBe(200);
      return r;
    });
    expect(body.buyAmount).toBe(String(o2));
  });

  it.each([
    ["far better than the market (20 % over the band's mid)", 1_200_000n],
    ["far worse than the market (20 % under it)", 800_000n],
  ])("does not serve a ladder outside the band guard: %s", async (_what, perUnit) => {
    const [outside, steady] = [await node(2, "outside"), await node(3, "steady")];
    outside.socket.send(ladder(perUnit));
    steady.socket.send(ladder(1_000_000n));
    const { body } = await eventually(async () => {
      const r = await get<IndicativePrice>(pricesPath(String(unit)));
      expect(r.status).toBe(200);
      return r;
    });
    expect(body.buyAmount).toBe("1000000");
    expect(body.resolvers).toBe(1);
    steady.socket.close();
    await eventually(async () => expect((await get(pricesPath(String(unit)))).body.error).toBe("no_prices"));
  });

  it("refuses a fifth ladder within a second for one direction, keeping the fourth", async () => {
    const b = await node(2, "chatty");
    for (let i = 1n; i <= 5n; i++) b.socket.send(ladder(1_000_000n + i));
    expect(await b.socket.next("error")).toMatchObject({ code: "levels_rate_limited" });
    const { body } = await get<IndicativePrice>(pricesPath(String(unit)));
    expect(body.buyAmount).toBe("1000004");
  });
});

describe("GET /v1/prices", () => {
  it("answers 404 no_prices, saying why, when no fresh ladder is there", async () => {
    const { status, body } = await get(pricesPath(String(unit)));
    expect(status).toBe(404);
    expect(body).toMatchObject({ error: "no_prices", message: expect.stringContaining("fresh ladder") });
  });

  it("answers the best ladder's output with a quote's fees, without asking any resolver, and lapses after ttlMs", async () => {
    const [a, b] = [await node(2, "steady"), await node(3, "sharp")];
    a.socket.send(ladder(1_000_000n));
    b.socket.send(ladder(1_010_000n, { ttlMs: 1_500 }));
    const priced = await eventually(async () => {
      const r = await get<IndicativePrice>(pricesPath(String(unit * 3n)));
      expect(r.body.buyAmount).toBe("3030000");
      return r.body;
    });
    expect(priced).toMatchObject({ chainId: EVM.chainId, sellToken: EVM.cngn, buyToken: EVM.usdc, firm: false });
    expect(priced.sellAmount).toBe(String(unit * 3n));
    expect(priced.resolvers).toBe(2);
    // Prices never ask: no rfq reached the nodes.
    await get(pricesPath(String(unit)));
    await expect(a.socket.next("rfq", 300)).rejects.toThrow(/no rfq frame/);
    // Past the sharp ladder's 1.5 s only the steady one is left.
    await eventually(async () => {
      const r = await get<IndicativePrice>(pricesPath(String(unit * 3n)));
      expect(r.body.buyAmount).toBe("3000000");
      expect(r.body.resolvers).toBe(1);
    }, 3_000);
    // Above the last rung nothing covers the amount.
    expect((await get(pricesPath(String(unit * 11n)))).body).toMatchObject({ error: "no_prices" });
  });

  it("without sellAmount answers the corridor's best ladder", async () => {
    const a = await node(2, "steady");
    a.socket.send(ladder(1_000_000n));
    const { body } = await eventually(async () => {
      const r = await get<IndicativeLadder>(pricesPath());
      expect(r.status).toBe(200);
      return r;
    });
    expect(body.levels.map((l) => [l.sellAmount, l.buyAmount])).toEqual([
      [String(unit), "1000000"],
      [String(unit * 10n), "10000000"],
    ]);
  });

  it("refuses a pair the relay does not trade", async () => {
    const { status, body } = await get(`/v1/prices?sellToken=${EVM.cngn}&buyToken=${EVM.cngn}`);
    expect(status).toBe(400);
    expect(body.error).toBe("unsupported_pair");
  });
});

describe("honest levels", () => {
  it("records bids 1 % under the node's own ladder as ~100 bps, and stops serving its ladder after 20", async () => {
    const b = await node(3, "shady");
    // Registered, so it has a directory entry whatever the chain reads of it.
    const registered = await app.request(
      `/v1/admin/resolvers/${b.account.address}`,
      {
        method: "PUT",
        body: JSON.stringify({ name: "shady", registered: true }),
        headers: { "content-type": "application/json", authorization: "Bearer test-admin-token" },
      },
      env,
    );
    expect(registered.status).toBe(200);
    const send = () => b.socket.send(ladder(1_010_000n));
    send();
    const priced = await eventually(async () => {
      const r = await get<IndicativePrice>(pricesPath(String(unit)));
      expect(r.status).toBe(200);
      return r.body;
    });
    for (let i = 0; i < 20; i++) {
      if (i % 5 === 0) send();
      const pending = app.request(
        "/v1/quotes",
        {
          method: "POST",
          body: JSON.stringify(quoteBody({ sellAmount: String(unit) })),
          headers: { "content-type": "application/json" },
        },
        env,
      );
      await b.bid(await b.nextRfq(), 999_900n);
      const res = await pending;
      expect(res.status).toBe(200);
      const quote = (await res.json()) as Quote;
      if (i === 0) {
        // The price charged the fees a quote charges: the same bps of its own output, the same gas fee.
        const bps = BigInt(Math.round((Number(quote.fee.amount) * 10_000) / 999_900));
        expect(bps).toBeGreaterThan(0n);
        expect(priced.fee).toEqual({ token: quote.fee.token, amount: String((1_010_000n * bps) / 10_000n) });
        expect(priced.gasFee).toEqual(quote.gasFee);
        expect(BigInt(priced.received)).toBe(1_010_000n - BigInt(priced.fee.amount) - BigInt(priced.gasFee.amount));
      }
    }
    // Its samples are taken once each answer has left.
    await eventually(async () => {
      send();
      expect((await get(pricesPath(String(unit)))).status).toBe(404);
    });
    const record = await eventually(async () => {
      const r = await get<ResolverStanding>(`/v1/resolvers/${b.account.address}`);
      expect(r.body).toMatchObject({ levels: { samples: 20 } });
      return r.body;
    });
    expect(record.levels).toEqual({ samples: 20, p50SlippageBps: 100, p90SlippageBps: 100 });
    expect(record.badges).not.toContain("honest_levels");
  });
});
