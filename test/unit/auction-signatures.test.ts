import { privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { offersHash } from "../../src/auction/quote-row";
import type { ChainAdapter } from "../../src/chains/adapter";
import type { RfqFrame } from "../../src/protocol/relay-frames";
import { fakeCorridor, limitRound, quoteInput } from "../support/fake-corridor";

/** Bid signatures are checked after the close, the winner's before the answer and the others' after it. */

const stranger = privateKeyToAccount("0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e");
const noReplies = { valid: 0, rejected: 0, declined: 0, noReply: 0, late: 0 };
const quoted = <T extends { kind: string }>(outcome: T) => {
  if (outcome.kind !== "quoted") throw new Error(`not quoted: ${JSON.stringify(outcome)}`);
  return outcome as Extract<T, { kind: "quoted" }>;
};
type Corridor = ReturnType<typeof fakeCorridor>;

beforeAll(async () => {
  // The first signature warms viem's curve tables, so no test's bid is slowed by it.
  await stranger.signMessage({ message: "warm up" });
});

/** Ways to sign a bid of `outputAmount` that is not the node's signature over it. */
const forgeries: [string, (c: Corridor, rfq: RfqFrame, outputAmount: bigint) => Promise<string>][] = [
  ["no signature", async () => "0x"],
  ["another key's signature", (c, rfq, out) => c.node("mallory").signBid(rfq, out, stranger)],
  ["its signature over another amount", (c, rfq, out) => c.node("mallory").signBid(rfq, out + 1n)],
];

/** A bid from mallory whose signature is `forge`d. */
async function forgedBid(c: Corridor, outputAmount: bigint, forge: (typeof forgeries)[number][1]): Promise<void> {
  const node = c.node("mallory");
  const rfq = await node.next("rfq");
  const signature = await forge(c, rfq, outputAmount);
  c.house.onReply({
    node: node.session,
    frame: { type: "bid", rfqId: rfq.rfqId, outputAmount: outputAmount.toString(), signature },
  });
}

const errors = (c: Corridor, name: string) =>
  c
    .node(name)
    .sent("error")
    .map((e) => e.code);

/** The local EVM adapter, counting the bid signatures it checks, one at a time or together. */
function counting() {
  const calls = { verifyBid: 0, batches: [] as number[] };
  const adapter = (real: ChainAdapter): ChainAdapter => ({
    ...real,
    verifyBid: (...args) => {
      calls.verifyBid++;
      return real.verifyBid(...args);
    },
    verifyBids: (terms, bids) => {
      calls.verifyBid += bids.length;
      calls.batches.push(bids.length);
      return real.verifyBids(terms, bids);
    },
  });
  return { calls, adapter };
}

describe("AuctionHouse: a forged winning signature", () => {
  it.each(forgeries)("with %s: the next bid wins, the forger's reply is rejected and struck", async (_, forge) => {
    const c = fakeCorridor({ nodes: ["alpha", "mallory"] });
    const pending = c.house.requestQuote(quoteInput());
    await c.bid("alpha", 990_000n);
    await forgedBid(c, 1_000_000n, forge);
    // Accepted on arrival: nothing is said to the node until the auction has closed.
    expect(errors(c, "mallory")).toEqual([]);
    const { quote } = quoted(await pending);
    expect(quote.resolver?.name).toBe("alpha");
    expect(quote.replies).toEqual({ ...noReplies, valid: 1, rejected: 1 });
    expect(quote.offers.map((o) => [o.name, o.rank, o.status, o.won])).toEqual([["alpha", 1, "won", true]]);
    expect(errors(c, "mallory")).toEqual(["bad_signature"]);
    // The error names the rfq of the forged bid.
    expect(c.node("mallory").sent("error")[0]?.rfqId).toBe(quote.rfqId);
    await c.settled();
    expect(c.node("mallory").sent("result")).toMatchObject([{ won: false, rank: null }]);
    expect(c.node("alpha").sent("result")).toMatchObject([{ won: true, rank: 1 }]);
    expect(c.strikes).toEqual([
      {
        address: c.node("mallory").session.address,
        event: quote.rfqId,
        why: `bid on ${quote.quoteId} with a forged signature`,
      },
    ]);
    const stored = c.store.quotes.get(quote.quoteId);
    expect(stored?.offers.map((o) => o.name)).toEqual(["alpha"]);
    expect(stored?.quote.offersHash).toBe(quote.offersHash);
    await c.settled();
    // alpha's signature was checked as the winner's: nothing is left to correct.
    expect(c.store.corrections).toEqual([]);
  });

  it("falls through every forged bid in turn, and answers no_offers when none is genuine", async () => {
    const c = fakeCorridor({ nodes: ["alpha", "mallory"] });
    const pending = c.house.requestQuote(quoteInput());
    await forgedBid(c, 1_000_000n, async () => "0x");
    const rfq = await c.node("alpha").next("rfq");
    const signature = await c.node("alpha").signBid(rfq, 1n);
    c.house.onReply({
      node: c.node("alpha").session,
      frame: { type: "bid", rfqId: rfq.rfqId, outputAmount: "990000", signature },
    });
    expect(await pending).toMatchObject({
      code: "no_offers",
      extras: { replies: { ...noReplies, rejected: 2 } },
    });
    expect([errors(c, "alpha"), errors(c, "mallory")]).toEqual([["bad_signature"], ["bad_signature"]]);
    expect(c.strikes.map((s) => s.address)).toEqual([
      c.node("mallory").session.address,
      c.node("alpha").session.address,
    ]);
    await c.settled();
    expect(c.store.counts).toMatchObject([{ winner: null }]);
  });

  it("in a limit round, falls to the next bid before checking minOut", async () => {
    const c = fakeCorridor({ nodes: ["alpha", "mallory"] });
    const pending = c.house.requestQuote(quoteInput({ limit: limitRound("900000", "990000") }));
    await c.bid("alpha", 990_000n);
    await forgedBid(c, 1_000_000n, async () => "0x");
    const { quote } = quoted(await pending);
    expect([quote.resolver?.name, quote.received]).toEqual(["alpha", "939010"]);
    expect(quote.replies).toEqual({ ...noReplies, valid: 1, rejected: 1 });
    expect(c.strikes.map((s) => s.address)).toEqual([c.node("mallory").session.address]);
  });

  it("is never asked to sign where the winner signs after the auction", async () => {
    const signer = (real: ChainAdapter): ChainAdapter => ({
      ...real,
      signing: {
        kind: "winner",
        keepFresh: async () => {},
        request: (terms, winner) => ({ transaction: `tx|${terms.rfqId}|${winner.resolver}`, facts: {} }),
        verify: (request, keys, signature) => signature === `${keys.address}:${request.transaction}`,
        takerSigning: (request, _keys, signature) => ({ transaction: `${request.transaction}+${signature}` }),
      },
    });
    const c = fakeCorridor({ nodes: ["alpha", "mallory"], adapter: signer });
    const pending = c.house.requestQuote(quoteInput());
    await c.bid("alpha", 990_000n);
    await forgedBid(c, 1_000_000n, async () => "0x");
    const alpha = c.node("alpha");
    const { rfqId, transaction } = await alpha.next("sign");
    c.house.onReply({
      node: alpha.session,
      frame: { type: "signed", rfqId, signature: `${alpha.session.address}:${transaction}` },
    });
    const { quote } = quoted(await pending);
    expect(quote.resolver?.name).toBe("alpha");
    expect(c.node("mallory").sent("sign")).toEqual([]);
    expect(quote.replies).toEqual({ ...noReplies, valid: 1, rejected: 1 });
    expect(c.strikes.map((s) => [s.address, s.why])).toEqual([
      [c.node("mallory").session.address, `bid on ${quote.quoteId} with a forged signature`],
    ]);
  });
});

describe("AuctionHouse: a forged losing signature", () => {
  it.each(forgeries)("with %s: answered as it came, then struck and cut from the stored quote", async (_, forge) => {
    const c = fakeCorridor({ nodes: ["alpha", "mallory", "gamma"] });
    const pending = c.house.requestQuote(quoteInput());
    await c.bid("alpha", 1_000_000n);
    await forgedBid(c, 995_000n, forge);
    await c.bid("gamma", 990_000n);
    const { quote } = quoted(await pending);
    // The taker's answer is built before the losers are checked: it still shows the forged offer.
    expect(quote.replies).toEqual({ ...noReplies, valid: 3 });
    expect(quote.offers.map((o) => [o.name, o.rank])).toEqual([
      ["alpha", 1],
      ["mallory", 2],
      ["gamma", 3],
    ]);
    expect(errors(c, "mallory")).toEqual([]);
    expect(c.strikes).toEqual([]);

    await c.settled();
    expect(errors(c, "mallory")).toEqual(["bad_signature"]);
    expect(c.strikes).toEqual([
      {
        address: c.node("mallory").session.address,
        event: quote.rfqId,
        why: `bid on ${quote.quoteId} with a forged signature`,
      },
    ]);
    expect(c.store.corrections).toHaveLength(1);
    const [correction] = c.store.corrections;
    expect(correction?.quoteId).toBe(quote.quoteId);
    expect(correction?.replies).toEqual({ ...noReplies, valid: 2, rejected: 1 });
    expect(correction?.offers.map((o) => [o.name, o.rank, o.status, o.won, o.signature.length])).toEqual([
      ["alpha", 1, "won", true, 132],
      ["gamma", 2, "lost", false, 132],
    ]);
    // The hash commits to the offers that remain, as a quote made without the forged one would.
    expect(correction?.offersHash).toBe(offersHash(correction?.offers ?? []));
    expect(correction?.offersHash).not.toBe(quote.offersHash);
    const stored = c.store.quotes.get(quote.quoteId);
    expect(stored?.quote.replies).toEqual(correction?.replies);
    expect(stored?.quote.offersHash).toBe(correction?.offersHash);
  });

  it("is struck after a refusal too, with no quote to correct", async () => {
    const c = fakeCorridor({ nodes: ["alpha", "mallory"] });
    const pending = c.house.requestQuote(quoteInput({ limit: limitRound("950000") }));
    await c.bid("alpha", 1_000_000n);
    await forgedBid(c, 990_000n, async () => "0x");
    expect(await pending).toMatchObject({
      code: "below_limit",
      extras: { replies: { ...noReplies, valid: 2 }, bestReceived: "949000" },
    });
    expect(errors(c, "mallory")).toEqual([]);
    await c.settled();
    expect(errors(c, "mallory")).toEqual(["bad_signature"]);
    expect(c.strikes.map((s) => s.address)).toEqual([c.node("mallory").session.address]);
    expect(c.store.corrections).toEqual([]);
  });

  it("counts a late reply after the correction with the forged bid still rejected", async () => {
    const c = fakeCorridor({ rfqWindowMs: 30, nodes: ["alpha", "mallory", "slowpoke"] });
    const pending = c.house.requestQuote(quoteInput());
    await c.bid("alpha", 1_000_000n);
    await forgedBid(c, 995_000n, async () => "0x");
    await c.clock.advance(30);
    const { quote } = quoted(await pending);
    await c.settled();
    await c.bid("slowpoke", 2_000_000n);
    await c.settled();
    expect(c.store.quotes.get(quote.quoteId)?.quote.replies).toEqual({ ...noReplies, valid: 1, rejected: 1, late: 1 });
  });
});

describe("AuctionHouse: signature checks per quote", () => {
  it("checks one signature before answering however many bid, and the rest after", async () => {
    const { calls, adapter } = counting();
    const c = fakeCorridor({ nodes: ["alpha", "beta", "gamma", "delta"], adapter });
    const pending = c.house.requestQuote(quoteInput());
    await c.bid("alpha", 1_000_000n);
    await c.bid("beta", 999_000n);
    await c.bid("gamma", 998_000n);
    await c.bid("delta", 997_000n);
    expect(calls.verifyBid).toBe(0);
    const { quote } = quoted(await pending);
    expect(calls.verifyBid).toBe(1);
    expect(quote.replies).toEqual({ ...noReplies, valid: 4 });
    await c.settled();
    expect(calls.verifyBid).toBe(4);
    // The winner's alone on the path; the other three together after it, sharing their inversions.
    expect(calls.batches).toEqual([3]);
    expect(c.store.corrections).toEqual([]);
    expect(c.strikes).toEqual([]);
  });

  it("checks the winner's and at most limits.bidChecksAfterAnswer of the others, however many bid", async () => {
    const { calls, adapter } = counting();
    const names = Array.from({ length: 12 }, (_, i) => `node-${i}`);
    const c = fakeCorridor({ nodes: names, adapter });
    const pending = c.house.requestQuote(quoteInput());
    for (const [i, name] of names.entries()) await c.bid(name, 1_000_000n - BigInt(i) * 1_000n);
    const { quote } = quoted(await pending);
    expect(quote.replies).toEqual({ ...noReplies, valid: 12 });
    expect(calls.verifyBid).toBe(1);
    await c.settled();
    const after = c.config.limits.bidChecksAfterAnswer;
    expect(calls.batches).toEqual([after]);
    expect(calls.verifyBid).toBe(1 + after);
  });

  it("checks each signature once: a forged winner's check is not repeated after the answer", async () => {
    const { calls, adapter } = counting();
    const c = fakeCorridor({ nodes: ["alpha", "mallory", "gamma"], adapter });
    const pending = c.house.requestQuote(quoteInput());
    await c.bid("alpha", 990_000n);
    await forgedBid(c, 1_000_000n, async () => "0x");
    await c.bid("gamma", 980_000n);
    quoted(await pending);
    expect(calls.verifyBid).toBe(2);
    await c.settled();
    expect(calls.verifyBid).toBe(3);
    expect(c.strikes).toHaveLength(1);
  });
});
