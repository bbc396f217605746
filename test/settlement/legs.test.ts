import { env } from "cloudflare:test";
import type { Hex } from "viem";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { readResolver, upsertRegistration } from "../../src/db/resolvers";
import { readStrikeRow } from "../../src/db/strikes";
import { type Bidder, marketSellAmount, quoteBody } from "../support/bidder";
import { nodeAccount } from "../support/ws-client";
import { app, balanceOf, EVM, getQuote, newTaker, runIndexer, signQuote, submit } from "./helpers";
import { type Answer, askNodes, counted, type Rfq, reinstate, rfqOf, standingOf } from "./legs";
import { drain, onlineNodes } from "./nodes";

/**
 * One swap filled by several makers at once (docs/legs.md), on a real chain: parts bid over the sockets,
 * composed into legs when they pay the taker more than any whole bid, settled in one transaction with the
 * taker's one signature, a fill per leg.
 */

/** 100 USDC's worth at the band's mid: large enough that 0.8 % over the market outweighs a leg's gas. */
let sellAmount = 0n;
const MARKET = 100_000_000n;
beforeAll(async () => {
  sellAmount = BigInt(await marketSellAmount((path) => app.request(path, {}, env))) * 100n;
});

let open: Bidder[] = [];
afterEach(() => {
  for (const b of open) b.socket.close();
  open = [];
});

const ask = (taker: string, bid: (rfqs: Map<Bidder, Rfq>) => Promise<void>) =>
  askNodes(open, { sellAmount: sellAmount.toString(), taker }, bid);
const declineAll = (rfqs: Map<Bidder, unknown>, nodes: Bidder[]) => {
  for (const b of nodes) b.socket.send({ type: "decline", rfqId: rfqOf(rfqs, b).rfqId, reason: "test" });
};

describe("many makers in one fill", () => {
  it("quotes two parts 0.8 % over the market as two legs that pay more than the best whole bid, and settles both at once", async () => {
    // Each part bidder holds 60 % of the swap's output: neither can fill it alone.
    const held = (MARKET * 6n) / 10n;
    const [wholeA, wholeB, partA, partB] = (await onlineNodes(
      open,
      [0, "whole-a", 5_000_000_000n],
      [1, "whole-b", 5_000_000_000n],
      [2, "part-a", held],
      [3, "part-b", held],
    )) as [Bidder, Bidder, Bidder, Bidder];
    const taker = await newTaker({ tokens: sellAmount * 4n });
    const half = sellAmount / 2n;
    const partOut = ((MARKET / 2n) * 1008n) / 1000n;

    // The same moment's whole bids alone: what the best whole bid leaves the taker.
    const wholeOnly = (await (
      await ask(taker.address, async (r) => {
        await Promise.all([wholeA.bid(rfqOf(r, wholeA), MARKET), wholeB.bid(rfqOf(r, wholeB), MARKET - 10_000n)]);
        declineAll(r, [partA, partB]);
      })
    ).json()) as Answer;
    expect(wholeOnly.legs).toEqual([
      { resolver: wholeA.account.address, sellAmount: sellAmount.toString(), outputAmount: MARKET.toString() },
    ]);

    const res = await ask(taker.address, async (r) => {
      await Promise.all([
        wholeA.bid(rfqOf(r, wholeA), MARKET),
        wholeB.bid(rfqOf(r, wholeB), MARKET - 10_000n),
        partA.part(rfqOf(r, partA), half, partOut),
        partB.part(rfqOf(r, partB), sellAmount - half, partOut),
      ]);
    });
    expect(res.status).toBe(200);
    const quote = (await res.json()) as Answer;
    expect(quote.legs.map((l) => [l.resolver, l.sellAmount, l.outputAmount])).toEqual([
      [partA.account.address, half.toString(), partOut.toString()],
      [partB.account.address, (sellAmount - half).toString(), partOut.toString()],
    ]);
    expect(BigInt(quote.received)).toBeGreaterThan(BigInt(wholeOnly.received));
    // Each leg's fee is its own; the gas fee is two legs'.
    expect(BigInt(quote.received)).toBe(2n * partOut - BigInt(quote.fee.amount) - BigInt(quote.gasFee.amount));
    expect(BigInt(quote.gasFee.amount)).toBeGreaterThan(BigInt(wholeOnly.gasFee.amount));
    const shown = Object.fromEntries(quote.offers.map((o) => [o.name, [o.status, o.sellAmount ?? null]]));
    expect(shown).toEqual({
      "part-a": ["won", half.toString()],
      "part-b": ["won", (sellAmount - half).toString()],
      "whole-a": ["lost", null],
      "whole-b": ["lost", null],
    });

    const before = await balanceOf(EVM.usdc, taker.address);
    // Registered, so each has a record to read.
    for (const b of [partA, partB]) await upsertRegistration(env.DB, b.account.address, {}, new Date().toISOString());
    const counts = await Promise.all([partA, partB].map(async (b) => counted(await standingOf(b.account.address))));
    const sub = await submit({ quoteId: quote.quoteId, signature: await signQuote(taker, quote.typedData) });
    expect(sub.status).toBe(202);
    const txHash = sub.body.txHash as Hex;
    await runIndexer();
    const settled = await getQuote(quote.quoteId);
    expect(settled.status).toBe("settled");
    // One transaction, a fill per leg.
    expect(settled.fills.map((f) => f.resolver)).toEqual([partA.account.address, partB.account.address]);
    expect(settled.settlement?.txHash).toBe(txHash);
    expect((await balanceOf(EVM.usdc, taker.address)) - before).toBe(BigInt(quote.received));
    expect(settled.legs).toEqual(quote.legs);
    // Each leg's resolver is counted a clean fill by the settlement, not only the quote's.
    const execution = settled.executions[0]?.executionId;
    for (const [i, leg] of [partA, partB].entries()) {
      expect((await readStrikeRow(env.DB, leg.account.address))?.lastEvent).toBe(execution);
      // And each counts the fill in its own record: one execution submitted and settled (docs/legs.md).
      const was = counts[i] as ReturnType<typeof counted>;
      const now = counted(await standingOf(leg.account.address));
      expect(now).toEqual({ submitted: was.submitted + 1, settled: was.settled + 1, failed: was.failed });
    }
  });

  /** Nodes 2 and 3, each holding 60 % of the output, bid half the swap each at the market: no one fills it. */
  async function halvesOnly() {
    const held = (MARKET * 6n) / 10n;
    const [partA, partB] = (await onlineNodes(open, [2, "part-a", held], [3, "part-b", held])) as [Bidder, Bidder];
    const taker = await newTaker({ tokens: sellAmount * 2n });
    const half = sellAmount / 2n;
    const res = await ask(taker.address, async (r) => {
      await Promise.all([
        partA.part(rfqOf(r, partA), half, MARKET / 2n),
        partB.part(rfqOf(r, partB), sellAmount - half, MARKET / 2n),
      ]);
    });
    return { partA, partB, taker, res };
  }

  it("fills by legs a swap no one node can fill", async () => {
    const { partA, partB, res } = await halvesOnly();
    expect(res.status).toBe(200);
    const quote = (await res.json()) as Answer;
    expect(quote.legs.map((l) => l.resolver)).toEqual([partA.account.address, partB.account.address]);
  });

  it("strikes only the leg whose resolver cannot pay when the fill is simulated, and requotes", async () => {
    const { partA, partB, taker, res } = await halvesOnly();
    const quote = (await res.json()) as Answer;
    expect(quote.resolver?.address).toBe(partA.account.address);
    const signature = await signQuote(taker, quote.typedData);
    // The second leg's resolver spends its USDC after winning.
    const restore = await drain(partB);
    try {
      const sub = await submit({ quoteId: quote.quoteId, signature });
      expect(sub.status).toBe(200);
      expect(sub.body).toMatchObject({ status: "requote", reason: "resolver:insufficient_balance" });
      expect(await partB.socket.next("execution")).toMatchObject({ quoteId: quote.quoteId, status: "failed" });
      expect((await readResolver(env.DB, partB.account.address))?.demotions).toBe(1);
      expect((await readResolver(env.DB, partA.account.address))?.demotions ?? 0).toBe(0);
    } finally {
      await restore();
    }
  });

  it("strikes the leg whose resolver cannot pay and settles through the next whole bid with the taker's one signature", async () => {
    // Nodes 3 (struck above) and 2 (the forged part below) stay out of it.
    const held = (MARKET * 6n) / 10n;
    const [whole, partA, partB] = (await onlineNodes(
      open,
      [0, "whole-a", 5_000_000_000n],
      [1, "part-a", held],
      [2, "part-b", held],
    )) as [Bidder, Bidder, Bidder];
    const taker = await newTaker({ tokens: sellAmount * 2n });
    const half = sellAmount / 2n;
    const partOut = ((MARKET / 2n) * 1008n) / 1000n;
    const pending = app.request(
      "/v1/quotes",
      {
        method: "POST",
        body: JSON.stringify(quoteBody({ sellAmount: sellAmount.toString(), taker: taker.address, slippageBps: 100 })),
        headers: { "content-type": "application/json" },
      },
      env,
    );
    const [rw, ra, rb] = await Promise.all([whole.nextRfq(), partA.nextRfq(), partB.nextRfq()]);
    await Promise.all([
      whole.bid(rw, MARKET),
      partA.part(ra, half, partOut),
      partB.part(rb, sellAmount - half, partOut),
    ]);
    const quote = (await (await pending).json()) as Answer;
    expect(quote.legs.map((l) => l.resolver)).toEqual([partA.account.address, partB.account.address]);
    const signature = await signQuote(taker, quote.typedData);
    const restore = await drain(partA);
    try {
      const before = await balanceOf(EVM.usdc, taker.address);
      const sub = await submit({ quoteId: quote.quoteId, signature, minReceived: quote.minReceived });
      expect(sub.status).toBe(202);
      expect(await partA.socket.next("execution")).toMatchObject({ quoteId: quote.quoteId, status: "failed" });
      const record = await getQuote(quote.quoteId);
      const byName = Object.fromEntries(record.offers.map((o) => [o.name, o.status]));
      expect(byName).toEqual({ "whole-a": "won", "part-a": "faded", "part-b": "lost" });
      expect(record.legs.map((l) => l.resolver)).toEqual([whole.account.address]);
      expect(record.timeline.find((t) => t.event === "fallback")?.detail).toMatchObject({
        reason: "resolver:insufficient_balance",
        faded: partA.account.address,
      });
      expect((await readResolver(env.DB, partA.account.address))?.demotions).toBe(1);
      expect((await readResolver(env.DB, partB.account.address))?.demotions ?? 0).toBe(0);
      await runIndexer();
      const settled = await getQuote(quote.quoteId);
      expect(settled.status).toBe("settled");
      const got = (await balanceOf(EVM.usdc, taker.address)) - before;
      expect(got.toString()).toBe(settled.received);
      expect(got).toBeGreaterThanOrEqual(BigInt(quote.minReceived));
    } finally {
      await restore();
    }
  });

  it("refuses a part below the least leg or above the whole with their codes, and passes over a part signed for another amount", async () => {
    // Nodes 1 and 3 were struck above: nodes 0 and 2 bid here.
    const [one, two] = (await onlineNodes(open, [0, "one", 5_000_000_000n], [2, "two", MARKET])) as [Bidder, Bidder];
    const taker = await newTaker({ tokens: sellAmount * 2n });
    const least = 1_000_000_000n;
    const below = await ask(taker.address, async (r) => {
      await Promise.all([one.bid(rfqOf(r, one), MARKET), two.part(rfqOf(r, two), least - 1n, MARKET / 100n)]);
    });
    expect(below.status).toBe(200);
    expect(await two.socket.next("error")).toMatchObject({ code: "part_below_minimum" });
    expect(((await below.json()) as Answer).legs.map((l) => l.resolver)).toEqual([one.account.address]);

    const above = await ask(taker.address, async (r) => {
      await Promise.all([one.part(rfqOf(r, one), sellAmount + 1n, MARKET), two.bid(rfqOf(r, two), MARKET)]);
    });
    expect(await one.socket.next("error")).toMatchObject({ code: "part_too_large" });
    expect(((await above.json()) as Answer).legs.map((l) => l.resolver)).toEqual([two.account.address]);

    // Two parts that cover the swap, one signed over another amount than it sells: no fill without it.
    const half = sellAmount / 2n;
    const forged = await ask(taker.address, async (r) => {
      await Promise.all([
        one.part(rfqOf(r, one), half, MARKET / 2n),
        two.part(rfqOf(r, two), sellAmount - half, MARKET / 2n, sellAmount - half + 1n),
      ]);
    });
    expect(forged.status).toBe(404);
    expect(await two.socket.next("error")).toMatchObject({ code: "bad_signature" });
  });
  it("fills a faded leg with another resolver's part, the other legs kept, and strikes only the faded one", async () => {
    // The strikes above demoted nodes 1, 2 and 3: lifted, so four resolvers bid parts here.
    for (const i of [0, 1, 2, 3]) await reinstate(nodeAccount(i).address);
    const held = (MARKET * 4n) / 10n;
    const nodes = (await onlineNodes(open, [0, "a", held], [1, "b", held], [2, "c", held], [3, "d", held])) as Bidder[];
    const [a, b, c, d] = nodes as [Bidder, Bidder, Bidder, Bidder];
    const taker = await newTaker({ tokens: sellAmount * 2n });
    const third = sellAmount / 3n;
    const rest = sellAmount - 2n * third;
    const partOut = ((MARKET / 3n) * 1008n) / 1000n;
    // Three legs' worth of parts, and d's part of what c sells, for a little less: it loses.
    const quote = (await (
      await askNodes(open, { sellAmount: sellAmount.toString(), taker: taker.address, slippageBps: 100 }, (r) =>
        Promise.all([
          a.part(rfqOf(r, a), third, partOut),
          b.part(rfqOf(r, b), third, partOut),
          c.part(rfqOf(r, c), rest, partOut),
          d.part(rfqOf(r, d), rest, partOut - 2_000n),
        ]).then(() => {}),
      )
    ).json()) as Answer;
    const names = (of: readonly Bidder[]) => of.map((n) => n.account.address).sort();
    expect(quote.legs.map((l) => l.resolver).sort()).toEqual(names([a, b, c]));
    const demotions = async () =>
      Promise.all(nodes.map(async (n) => (await readResolver(env.DB, n.account.address))?.demotions ?? 0));
    const struck = await demotions();
    const signature = await signQuote(taker, quote.typedData);
    const restore = await drain(c);
    try {
      const before = await balanceOf(EVM.usdc, taker.address);
      const sub = await submit({ quoteId: quote.quoteId, signature, minReceived: quote.minReceived });
      expect(sub.status).toBe(202);
      expect(await c.socket.next("execution")).toMatchObject({ quoteId: quote.quoteId, status: "failed" });
      const record = await getQuote(quote.quoteId);
      const byName = Object.fromEntries(record.offers.map((o) => [o.name, o.status]));
      expect(byName).toEqual({ a: "won", b: "won", c: "faded", d: "won" });
      expect(record.legs.map((l) => l.resolver).sort()).toEqual(names([a, b, d]));
      expect(record.timeline.find((t) => t.event === "fallback")?.detail).toMatchObject({
        reason: "resolver:insufficient_balance",
        faded: c.account.address,
      });
      // Only the faded leg's resolver is struck.
      expect(await demotions()).toEqual(struck.map((n, i) => (i === 2 ? n + 1 : n)));
      await runIndexer();
      const settled = await getQuote(quote.quoteId);
      expect(settled.status).toBe("settled");
      expect(settled.fills.map((f) => f.resolver).sort()).toEqual(names([a, b, d]));
      const got = (await balanceOf(EVM.usdc, taker.address)) - before;
      expect(got.toString()).toBe(settled.received);
      expect(got).toBeGreaterThanOrEqual(BigInt(quote.minReceived));
      // The gas fee is the one the taker signed, for as many legs as it paid for.
      expect(settled.gasFee.amount).toBe(quote.gasFee.amount);
    } finally {
      await restore();
    }
  });
});
