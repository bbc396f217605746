import { privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import type { ChainAdapter } from "../../src/chains/adapter";
import { SIGN_TIMEOUT_MS } from "../../src/protocol/frame-limits";
import { BAND, fakeCorridor, limitRound, quoteInput, USDC } from "../support/fake-corridor";

const stranger = privateKeyToAccount("0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e");
const noReplies = { valid: 0, rejected: 0, declined: 0, noReply: 0, late: 0 };
const quoted = <T extends { kind: string }>(outcome: T) => {
  if (outcome.kind !== "quoted") throw new Error(`not quoted: ${JSON.stringify(outcome)}`);
  return outcome as Extract<T, { kind: "quoted" }>;
};

beforeAll(async () => {
  // The first signature warms viem's curve tables, so no test's bid is slowed by it.
  await stranger.signMessage({ message: "warm up" });
});

describe("AuctionHouse: closing", () => {
  it("closes as soon as every asked node answered, the best bid winning, and stores the quote", async () => {
    const c = fakeCorridor({ rfqWindowMs: 1_000 });
    const started = c.clock.now();
    const pending = c.house.requestQuote(quoteInput());
    const [ra, rb] = [await c.node("alpha").next("rfq"), await c.node("beta").next("rfq")];
    expect(ra.quoteId).toBe(rb.quoteId);
    await c.bid("alpha", 1_000_000n);
    await c.bid("beta", 999_000n);
    const { quote } = quoted(await pending);
    expect(c.clock.now() - started).toBeLessThan(1_000);
    // An EVM quote names no Solana key: the resolver's identity signed its bid.
    expect(quote.resolver).toEqual({ address: c.node("alpha").session.address, name: "alpha", solanaAddress: null });
    expect(quote.replies).toEqual({ ...noReplies, valid: 2 });
    expect(quote.offers.map((o) => [o.name, o.rank, o.status, o.won])).toEqual([
      ["alpha", 1, "won", true],
      ["beta", 2, "lost", false],
    ]);
    expect(quote.fee).toEqual({ token: USDC, amount: "1000" });
    expect(quote.gasFee).toEqual({ token: USDC, amount: "50000", source: "fallback" });
    expect(quote.received).toBe(String(1_000_000 - 1_000 - 50_000));
    expect(quote.timeline.map((t) => t.event)).toEqual(["requested", "quoted"]);
    // The bidders hear their results once the answer has left, not before it.
    expect(c.node("alpha").sent("result")).toEqual([]);
    await c.settled();
    expect(c.node("alpha").sent("result")).toEqual([{ type: "result", rfqId: ra.rfqId, won: true, rank: 1 }]);
    expect(c.node("beta").sent("result")).toEqual([{ type: "result", rfqId: rb.rfqId, won: false, rank: 2 }]);
    const stored = c.store.quotes.get(quote.quoteId);
    expect(stored?.quote.replies).toEqual(quote.replies);
    expect(stored?.offers.map((o) => [o.name, o.signature.length])).toEqual([
      ["alpha", 132],
      ["beta", 132],
    ]);
    const alpha = c.node("alpha").session.address.toLowerCase();
    const beta = c.node("beta").session.address.toLowerCase();
    expect(c.store.counts).toMatchObject([
      { asked: [alpha, beta], answered: new Set([alpha, beta]), winner: c.node("alpha").session.address },
    ]);
  });

  it("closes early when an asked node disconnects, counting it as noReply", async () => {
    const c = fakeCorridor({ rfqWindowMs: 1_000 });
    const started = c.clock.now();
    const pending = c.house.requestQuote(quoteInput());
    await c.node("beta").next("rfq");
    await c.bid("alpha", 1_000_000n);
    c.house.onGone(c.node("beta").session.address);
    const { quote } = quoted(await pending);
    expect(c.clock.now() - started).toBeLessThan(1_000);
    expect(quote.replies).toEqual({ ...noReplies, valid: 1, noReply: 1 });
  });

  it("closes at the window when a node stays silent, and counts it as noReply", async () => {
    const c = fakeCorridor({ rfqWindowMs: 30 });
    const started = c.clock.now();
    const pending = c.house.requestQuote(quoteInput());
    await c.bid("alpha", 1_000_000n);
    await c.clock.advance(30);
    const { quote } = quoted(await pending);
    expect(c.clock.now() - started).toBeGreaterThanOrEqual(30);
    expect(quote.replies).toEqual({ ...noReplies, valid: 1, noReply: 1 });
    expect(c.store.counts[0]?.answered).toEqual(new Set([c.node("alpha").session.address.toLowerCase()]));
  });

  it("reports how long the auction, ranking and storage took, for a Server-Timing header", async () => {
    const c = fakeCorridor({ rfqWindowMs: 30 });
    const store = c.store.store.bind(c.store);
    c.store.store = async (...args) => {
      await c.clock.sleep(40);
      await store(...args);
    };
    const started = c.clock.elapsed();
    const pending = c.house.requestQuote(quoteInput());
    await c.bid("alpha", 1_000_000n);
    await c.clock.advance(70);
    const { timings } = quoted(await pending);
    const took = c.clock.elapsed() - started;
    // beta stays silent: the auction waits out its 30 ms window; the store takes 40 ms.
    expect(timings.auctionMs).toBe(30);
    expect(timings.storageMs).toBe(40);
    expect(timings.rankingMs).toBeGreaterThanOrEqual(0);
    expect(timings.auctionMs + timings.rankingMs + timings.storageMs).toBeLessThanOrEqual(took);
  });

  it("counts a reply after the close as late, tells the node, and updates the stored replies", async () => {
    const c = fakeCorridor({ rfqWindowMs: 30, nodes: ["alpha", "slowpoke", "sleepy"] });
    const pending = c.house.requestQuote(quoteInput());
    await c.bid("alpha", 1_000_000n);
    await c.clock.advance(30);
    const { quote } = quoted(await pending);
    await c.bid("slowpoke", 2_000_000n);
    expect(c.node("slowpoke").sent("error")).toEqual([
      { type: "error", code: "late_bid", message: "the auction had closed", rfqId: quote.rfqId },
    ]);
    await c.decline("sleepy");
    await c.settled();
    expect(c.store.quotes.get(quote.quoteId)?.quote.replies).toEqual({ ...noReplies, valid: 1, noReply: 0, late: 2 });
  });
});

describe("AuctionHouse: replies", () => {
  const mallory = async (
    reply: (c: ReturnType<typeof fakeCorridor>, rfq: Awaited<ReturnType<typeof nextRfq>>) => Promise<void> | void,
    code: string,
  ) => {
    const c = fakeCorridor({ nodes: ["alpha", "mallory"] });
    const pending = c.house.requestQuote(quoteInput());
    await c.bid("alpha", 990_000n);
    const rfq = await nextRfq(c);
    await reply(c, rfq);
    // The error names the rfq the refused bid answered, so a node bidding on many can tell which.
    expect(
      c
        .node("mallory")
        .sent("error")
        .map((e) => [e.code, e.rfqId]),
    ).toEqual([[code, rfq.rfqId]]);
    const { quote } = quoted(await pending);
    expect(quote.replies).toEqual({ ...noReplies, valid: 1, rejected: 1 });
    expect(quote.offers.map((o) => o.name)).toEqual(["alpha"]);
    await c.settled();
    expect(c.node("mallory").sent("result")).toMatchObject([{ won: false, rank: null }]);
  };
  const nextRfq = (c: ReturnType<typeof fakeCorridor>) => c.node("mallory").next("rfq");

  it("rejects a bid over the heartbeat's inventory as insufficient_inventory", () =>
    mallory((c) => c.bid("mallory", 6_000_000_000n), "insufficient_inventory"));

  it("rejects a bid that does not cover the fees as below_fees", () =>
    mallory((c) => c.bid("mallory", 50_000n), "below_fees"));

  it("rejects a bid that expired before the close as expired_bid", () =>
    mallory((c) => c.bid("mallory", 1_000_000n, { expiresAt: c.clock.now() - 1 }), "expired_bid"));

  it("rejects a malformed reply to a live rfq as bad_frame", () =>
    mallory(
      (c, rfq) =>
        c.house.onReply({ node: c.node("mallory").session, malformed: { rfqId: rfq.rfqId, message: "bad frame" } }),
      "bad_frame",
    ));

  it("keeps the first of two bids from one node and answers the second duplicate_bid", async () => {
    const c = fakeCorridor({ nodes: ["alpha", "twice"] });
    const pending = c.house.requestQuote(quoteInput());
    await c.bid("twice", 990_000n);
    await c.bid("twice", 2_000_000n);
    expect(
      c
        .node("twice")
        .sent("error")
        .map((e) => e.code),
    ).toEqual(["duplicate_bid"]);
    await c.bid("alpha", 1_000_000n);
    const { quote } = quoted(await pending);
    expect(quote.offers.map((o) => [o.name, o.outputAmount])).toEqual([
      ["alpha", "1000000"],
      ["twice", "990000"],
    ]);
  });

  it("takes one part of a node an rfq: a second part, overlapping or not, is duplicate_bid, so no node is two legs", async () => {
    const c = fakeCorridor({ nodes: ["alpha", "twice"] });
    // 3,160 cNGN: parts of 1,896 and 1,264 are each above the token's least part (its minimum, 1,000).
    const pending = c.house.requestQuote(quoteInput({ sellAmount: "3160000000" }));
    await c.bid("twice", 1_200_000n, { sellAmount: "1896000000" });
    await c.bid("twice", 800_000n, { sellAmount: "1264000000" });
    expect(
      c
        .node("twice")
        .sent("error")
        .map((e) => e.code),
    ).toEqual(["duplicate_bid"]);
    await c.bid("alpha", 2_000_000n);
    const { quote } = quoted(await pending);
    expect(quote.offers.map((o) => [o.name, o.sellAmount ?? null])).toEqual([
      ["alpha", null],
      ["twice", "1896000000"],
    ]);
    expect(quote.legs).toHaveLength(1);
  });

  it("answers not_asked to a node that was not asked, without counting it", async () => {
    const c = fakeCorridor({ rfqWindowMs: 30, nodes: ["alpha", "paused"] });
    c.node("paused").session.state = "paused";
    const pending = c.house.requestQuote(quoteInput());
    const rfq = await c.node("alpha").next("rfq");
    expect(c.node("paused").sent("rfq")).toEqual([]);
    c.house.onReply({
      node: c.node("paused").session,
      frame: { type: "bid", rfqId: rfq.rfqId, outputAmount: "1", signature: "0x" },
    });
    expect(
      c
        .node("paused")
        .sent("error")
        .map((e) => [e.code, e.rfqId]),
    ).toEqual([["not_asked", rfq.rfqId]]);
    await c.bid("alpha", 1_000_000n);
    expect(quoted(await pending).quote.replies).toEqual({ ...noReplies, valid: 1 });
  });

  it("answers unknown_rfq to a reply naming no live rfq", () => {
    const c = fakeCorridor();
    const alpha = c.node("alpha");
    c.house.onReply({
      node: alpha.session,
      frame: { type: "bid", rfqId: "rfq_nope", outputAmount: "1", signature: "0x" },
    });
    c.house.onReply({ node: alpha.session, frame: { type: "decline", rfqId: "rfq_nope", reason: "x" } });
    c.house.onReply({ node: alpha.session, frame: { type: "signed", rfqId: "rfq_nope", signature: "x" } });
    expect(alpha.sent("error").map((e) => [e.code, e.rfqId])).toEqual([
      ["unknown_rfq", "rfq_nope"],
      ["unknown_rfq", "rfq_nope"],
      ["unknown_rfq", "rfq_nope"],
    ]);
  });

  it("answers 404 no_offers with the replies when every node declines", async () => {
    const c = fakeCorridor();
    const pending = c.house.requestQuote(quoteInput());
    await c.decline("alpha");
    await c.decline("beta");
    expect(await pending).toMatchObject({
      kind: "refused",
      status: 404,
      code: "no_offers",
      extras: { replies: { ...noReplies, declined: 2 }, nodesOnline: 2 },
    });
    await c.settled();
    expect(c.store.counts).toMatchObject([{ winner: null }]);
    expect(c.store.quotes.size).toBe(0);
  });
});

describe("AuctionHouse: who is asked", () => {
  it("answers no_offers with nodesOnline 0 when no node is connected", async () => {
    const c = fakeCorridor({ nodes: [] });
    expect(await c.house.requestQuote(quoteInput())).toMatchObject({
      code: "no_offers",
      extras: { replies: noReplies, nodesOnline: 0 },
    });
  });

  it("counts fresh nodes as online but asks only quoting ones with inventory", async () => {
    const c = fakeCorridor({ nodes: ["stale", "paused", "empty"] });
    c.node("stale").session.lastHeartbeat = c.clock.now() - 36_000;
    c.node("paused").session.state = "paused";
    c.node("empty").session.inventory = [];
    expect(await c.house.requestQuote(quoteInput())).toMatchObject({ code: "no_offers", extras: { nodesOnline: 2 } });
    expect(c.nodes.flatMap((n) => n.sent("rfq"))).toEqual([]);
  });

  it("does not ask a node without a key the chain verifies bids with", async () => {
    const c = fakeCorridor({
      nodes: ["keyless", "keyed"],
      adapter: (real) => ({ ...real, bidKey: (k) => k.ed25519Key }),
    });
    c.node("keyed").session.ed25519Key = "9J7NJUkANRnZxTEEAnxRsLuuVZ9SvZF7QzwN2TCWXhcJ";
    const pending = c.house.requestQuote(quoteInput());
    await c.node("keyed").next("rfq");
    expect(c.node("keyless").sent("rfq")).toEqual([]);
    await c.decline("keyed");
    expect(await pending).toMatchObject({ extras: { replies: { ...noReplies, declined: 1 }, nodesOnline: 2 } });
  });
});

describe("AuctionHouse: ranking and steering", () => {
  it("breaks a tie by latency: the faster node wins", async () => {
    const c = fakeCorridor();
    const pending = c.house.requestQuote(quoteInput());
    await c.bid("beta", 1_000_000n);
    await c.clock.advance(20);
    await c.bid("alpha", 1_000_000n);
    const { quote } = quoted(await pending);
    expect(quote.offers.map((o) => o.name)).toEqual(["beta", "alpha"]);
  });

  it("breaks a tie by reliability before latency: the more reliable node wins though slower", async () => {
    const c = fakeCorridor({ nodes: ["alpha", "beta", "gamma"], reliability: { alpha: 0.97, beta: 0.8 } });
    const pending = c.house.requestQuote(quoteInput());
    await c.bid("gamma", 1_000_000n);
    await c.bid("beta", 1_000_000n);
    await c.clock.advance(20);
    await c.bid("alpha", 1_000_000n);
    const { quote } = quoted(await pending);
    // gamma, the fastest, has no reliability yet: it ranks after both that have one.
    expect(quote.offers.map((o) => [o.name, o.status])).toEqual([
      ["alpha", "won"],
      ["beta", "lost"],
      ["gamma", "lost"],
    ]);
    expect(quote.resolver?.name).toBe("alpha");
  });

  it("lets reliability break only a tie: more received wins over more reliable", async () => {
    const c = fakeCorridor({ reliability: { alpha: 1, beta: 0.5 } });
    const pending = c.house.requestQuote(quoteInput());
    await c.bid("alpha", 1_000_000n);
    await c.bid("beta", 1_000_001n);
    const { quote } = quoted(await pending);
    expect(quote.resolver?.name).toBe("beta");
  });

  it("lets a demoted resolver bid but not win", async () => {
    const d = fakeCorridor({ nodes: ["alpha", "demoted"], demoted: ["demoted"] });
    const demoted = d.node("demoted").session.address;
    const pending = d.house.requestQuote(quoteInput());
    await d.bid("demoted", 1_030_000n);
    await d.bid("alpha", 1_000_000n);
    const { quote } = quoted(await pending);
    expect(quote.resolver?.name).toBe("alpha");
    expect(quote.offers.map((o) => [o.name, o.status])).toEqual([
      ["demoted", "demoted"],
      ["alpha", "won"],
    ]);
    expect(quote.steering).toMatchObject({ demoted: [demoted] });
  });

  it("shows the band on the quote and steers away from bids too far under its low or over its high", async () => {
    const c = fakeCorridor({ nodes: ["fair", "lowball", "too-good"] });
    const pending = c.house.requestQuote(quoteInput());
    expect((await c.node("fair").next("rfq")).band).toMatchObject({ base: "USD", quote: "NGN", mid: 1580 });
    await c.bid("fair", 980_000n);
    await c.bid("lowball", 964_766n);
    await c.bid("too-good", 1_034_202n);
    const { quote } = quoted(await pending);
    expect(quote.band).toMatchObject({ mid: 1580 });
    expect(quote.offers.map((o) => [o.name, o.status])).toEqual([
      ["too-good", "outside_band"],
      ["fair", "won"],
      ["lowball", "outside_band"],
    ]);
    expect(quote.steering).toEqual({
      bandGuardBps: 300,
      minOutput: "964767",
      maxOutput: "1034201",
      outsideBand: [c.node("too-good").session.address, c.node("lowball").session.address],
      demoted: [],
    });
  });

  it("steers nothing with a band older than 60 s, and quotes carry no band", async () => {
    const c = fakeCorridor({ nodes: ["lowball"], band: { ...BAND, at: Date.now() - 61_000 } });
    const pending = c.house.requestQuote(quoteInput());
    expect((await c.node("lowball").next("rfq")).band).toBeNull();
    await c.bid("lowball", 500_000n);
    const { quote } = quoted(await pending);
    expect([quote.band, quote.steering, quote.resolver?.name]).toEqual([null, null, "lowball"]);
  });

  it("steers nothing without a band", async () => {
    const c = fakeCorridor({ nodes: ["lowball"], band: null });
    const pending = c.house.requestQuote(quoteInput());
    await c.bid("lowball", 500_000n);
    const { quote } = quoted(await pending);
    expect([quote.band, quote.steering, quote.resolver?.name]).toEqual([null, null, "lowball"]);
  });
});

describe("AuctionHouse: winners that sign after the auction", () => {
  const ALPHA_SOLANA = "9J7NJUkANRnZxTEEAnxRsLuuVZ9SvZF7QzwN2TCWXhcJ";
  const BETA_SOLANA = "6Zc5Jg3xH9b1bXkYfR1R1Q6sZp8m3yXq8Dk4n2LqW7dA";
  /** The real EVM adapter with winner signing whose signature is `<address>:<transaction>`. */
  const withHook = (real: ChainAdapter): ChainAdapter => ({
    ...real,
    quotedWinnerKey: (keys) => keys.ed25519Key,
    signing: {
      kind: "winner",
      keepFresh: async () => {},
      request: (terms, winner) => ({
        transaction: `tx|${terms.rfqId}|${winner.resolver}|${winner.amounts.outputAmount}`,
        facts: { validUntil: 7 },
      }),
      verify: (request, keys, signature) => signature === `${keys.address}:${request.transaction}`,
      takerSigning: (request, _keys, signature) => ({
        transaction: `${request.transaction}+${signature}`,
        ...request.facts,
      }),
    },
  });
  const auction = async () => {
    const c = fakeCorridor({ nodes: ["alpha", "beta"], adapter: withHook });
    c.node("alpha").session.ed25519Key = ALPHA_SOLANA;
    c.node("beta").session.ed25519Key = BETA_SOLANA;
    const pending = c.house.requestQuote(quoteInput());
    await c.bid("alpha", 1_000_000n);
    await c.bid("beta", 990_000n);
    return { c, pending };
  };
  const sign = async (c: ReturnType<typeof fakeCorridor>, name: string, signature?: string) => {
    const n = c.node(name);
    const { rfqId, transaction } = await n.next("sign");
    c.house.onReply({
      node: n.session,
      frame: {
        type: "signed",
        rfqId,
        signature: signature ?? `${n.session.address}:${transaction}`,
      },
    });
  };

  it("asks the best bidder to sign and records it as the winner once it signed in time", async () => {
    const { c, pending } = await auction();
    const alpha = c.node("alpha");
    await sign(c, "alpha");
    const { quote } = quoted(await pending);
    // The quote names the key that signed for the winner, as answered and as stored.
    const named = { address: alpha.session.address, name: "alpha", solanaAddress: ALPHA_SOLANA };
    expect(quote.resolver).toEqual(named);
    expect(c.store.quotes.get(quote.quoteId)?.quote.resolver).toEqual(named);
    const { rfqId, transaction } = alpha.sent("sign")[0] ?? {};
    expect(transaction).toBe(`tx|${rfqId}|${alpha.session.address}|1000000`);
    expect(c.node("beta").sent("sign")).toEqual([]);
    await c.settled();
    expect(alpha.sent("result")).toMatchObject([{ won: true, rank: 1 }]);
    const signature = `${alpha.session.address}:${transaction}`;
    expect(c.store.quotes.get(quote.quoteId)?.quote.signing).toMatchObject({
      winnerSignature: signature,
      transaction: `${transaction}+${signature}`,
      validUntil: 7,
    });
  });

  it("falls to the next bid when the winner does not sign within 500 ms", async () => {
    const { c, pending } = await auction();
    const started = c.clock.now();
    await c.node("alpha").next("sign");
    await c.clock.advance(SIGN_TIMEOUT_MS);
    await sign(c, "beta");
    const { quote } = quoted(await pending);
    expect(c.clock.now() - started).toBe(SIGN_TIMEOUT_MS);
    expect(quote.resolver).toMatchObject({ name: "beta", solanaAddress: BETA_SOLANA });
    expect(quote.offers.map((o) => [o.name, o.status])).toEqual([
      ["alpha", "lost"],
      ["beta", "won"],
    ]);
    await c.settled();
    expect(c.node("alpha").sent("result")).toMatchObject([{ won: false, rank: 1 }]);
    expect(c.store.counts).toMatchObject([{ winner: c.node("beta").session.address }]);
    // Not signing a win is a strike for that node, once, and none for the one that signed.
    expect(c.strikes).toEqual([
      {
        address: c.node("alpha").session.address,
        event: quote.rfqId,
        why: `won ${quote.quoteId} and did not sign within 500 ms`,
      },
    ]);
    await sign(c, "alpha");
    expect(
      c
        .node("alpha")
        .sent("error")
        .map((e) => e.code),
    ).toEqual(["unknown_rfq"]);
  });

  it("falls to the next bid when the winner's signature does not verify", async () => {
    const { c, pending } = await auction();
    await sign(c, "alpha", "0xforged");
    await sign(c, "beta");
    expect(quoted(await pending).quote.resolver?.name).toBe("beta");
    expect(c.strikes.map((s) => [s.address, s.why.endsWith("signed something else")])).toEqual([
      [c.node("alpha").session.address, true],
    ]);
  });

  it("asks nobody to sign and answers no_offers when the chain state to build with is stale", async () => {
    const stale = (real: ChainAdapter): ChainAdapter => {
      const hooked = withHook(real);
      return { ...hooked, signing: { ...hooked.signing, request: () => null } as ChainAdapter["signing"] };
    };
    const c = fakeCorridor({ nodes: ["alpha"], adapter: stale });
    const pending = c.house.requestQuote(quoteInput());
    await c.bid("alpha", 1_000_000n);
    expect(await pending).toMatchObject({
      code: "no_offers",
      message: expect.stringContaining("RPC is not answering"),
    });
    expect(c.node("alpha").sent("sign")).toEqual([]);
    expect(c.strikes).toEqual([]);
  });

  it("answers no_offers when no bidder signs", async () => {
    const { c, pending } = await auction();
    await c.clock.advance(2 * SIGN_TIMEOUT_MS);
    expect(await pending).toMatchObject({ code: "no_offers", extras: { replies: { valid: 2 } } });
    expect(c.nodes.map((n) => n.sent("sign").length)).toEqual([1, 1]);
    await c.settled();
    expect(c.node("alpha").sent("result")).toMatchObject([{ won: false }]);
  });
});

describe("AuctionHouse: limit order rounds", () => {
  it("asks for a LimitFill of the order under the reactor's domain and quotes a bid that meets minOut", async () => {
    const c = fakeCorridor({ nodes: ["alpha"] });
    const pending = c.house.requestQuote(quoteInput({ limit: limitRound("900000") }));
    const rfq = await c.node("alpha").next("rfq");
    expect(rfq.limit).toEqual({ limitOrderId: "lo_test", minOut: "900000", limitAmount: "1000000" });
    expect(rfq.toSign).toMatchObject({
      scheme: "eip712",
      primaryType: "LimitFill",
      domain: { name: "Relay Reactor" },
      message: { nonce: "77", outputAmount: null, order: { minOut: "900000" } },
    });
    await c.bid("alpha", 1_000_000n);
    const { quote } = quoted(await pending);
    // 1 USDC out, less 10 bps and the 0.05 USDC gas fee: 0.949 USDC to the recipient, over 0.9.
    expect(quote.received).toBe("949000");
    expect(c.store.quotes.get(quote.quoteId)?.quote.signing).toMatchObject({
      limit: { limitOrderId: "lo_test", nonce: "77", order: { minOut: "900000" } },
      resolver: c.node("alpha").session.address,
      gasFee: "50000",
      outputAmount: "1000000",
    });
  });

  it("never fills an order below its price: a bid that meets minOut but not the limit does not win", async () => {
    // The order asks 1.01 USDC for its cNGN; a bid of 1.00 USDC gives the recipient 0.949, over minOut 0.9.
    const c = fakeCorridor({ nodes: ["alpha"] });
    const pending = c.house.requestQuote(quoteInput({ limit: limitRound("900000", "1010000") }));
    const rfq = await c.node("alpha").next("rfq");
    expect(rfq.limit).toEqual({ limitOrderId: "lo_test", minOut: "900000", limitAmount: "1010000" });
    await c.bid("alpha", 1_000_000n);
    expect(await pending).toMatchObject({ code: "below_limit", extras: { bestReceived: "949000" } });
    expect(c.store.quotes.size).toBe(0);
  });

  it("quotes nothing when the best bid gives the recipient less than minOut, and says how much it gave", async () => {
    const c = fakeCorridor({ nodes: ["alpha"] });
    const pending = c.house.requestQuote(quoteInput({ limit: limitRound("950000") }));
    await c.bid("alpha", 1_000_000n);
    expect(await pending).toMatchObject({ code: "below_limit", extras: { bestReceived: "949000" } });
    await c.settled();
    expect(c.node("alpha").sent("result")).toMatchObject([{ won: false, rank: 1 }]);
    expect(c.store.quotes.size).toBe(0);
  });

  it("does not take an RfqFill signature as a fill of the order", async () => {
    const c = fakeCorridor({ nodes: ["alpha"] });
    const rfqPending = c.house.requestQuote(quoteInput());
    const rfq = await c.node("alpha").next("rfq");
    const rfqSignature = await c.node("alpha").signBid(rfq, 1_000_000n);
    c.house.onReply({
      node: c.node("alpha").session,
      frame: {
        type: "bid",
        rfqId: rfq.rfqId,
        outputAmount: "1000000",
        signature: rfqSignature,
      },
    });
    await rfqPending;
    const pending = c.house.requestQuote(quoteInput({ limit: limitRound("900000") }));
    await c.node("alpha").sentAtLeast("rfq", 2);
    const limitRfq = await c.node("alpha").next("rfq");
    c.house.onReply({
      node: c.node("alpha").session,
      frame: {
        type: "bid",
        rfqId: limitRfq.rfqId,
        outputAmount: "1000000",
        signature: rfqSignature,
      },
    });
    expect(await pending).toMatchObject({ code: "no_offers", extras: { replies: { rejected: 1 } } });
  });
});
