import { describe, expect, it } from "vitest";
import { protocolFee, quoteAmounts } from "../../src/auction/amounts";
import { Auction } from "../../src/auction/auction";
import { BAND_FRESH_MS, freshBand, outputBounds } from "../../src/auction/band-guard";
import { decideWinner } from "../../src/auction/decide";
import { type RankedOffer, rankBids, type ValidBid, withoutOffers, withStanding } from "../../src/auction/rank";
import type { QuoteSigning, RfqTerms } from "../../src/chains/adapter";
import { gasChargeFor } from "../../src/chains/fee-charge";
import { FakeClock } from "../support/fake-clock";

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
/** A protocol fee of `bps` charged in the buy token, as on EVM. */
const onOutput = (bps: number) => ({ token: "0xBUY", bps, side: "buy" as const });

describe("amounts", () => {
  it("takes fee and a buy-token gas fee out of the output", () => {
    const gas = gasChargeFor({ fixed: "50000", token: null }, "0xSELL", "0xBUY", same);
    expect(gas).toEqual({ token: "0xBUY", amount: 50_000n, side: "buy" });
    expect(quoteAmounts({ sellAmount: 1_580_000_000n, outputAmount: 1_000_000n, fee: onOutput(10), gas })).toEqual({
      outputAmount: 1_000_000n,
      fee: 1_000n,
      gasFee: 50_000n,
      received: 949_000n,
      takerPays: 1_580_000_000n,
      proceeds: 1_580_000_000n,
    });
  });

  it("adds a sell-token gas fee to what the taker pays", () => {
    const gas = gasChargeFor({ fixed: "70", token: "0xsell" }, "0xSELL", "0xBUY", same);
    expect(gas.side).toBe("sell");
    expect(quoteAmounts({ sellAmount: 1_000n, outputAmount: 5_000n, fee: onOutput(30), gas })).toMatchObject({
      fee: 15n,
      received: 4_985n,
      takerPays: 1_070n,
      proceeds: 1_000n,
    });
  });

  it("has the taker pay a sell-token fee, bps of the sale, on top of it, beside a gas fee on either side", () => {
    const fee = { token: "0xSELL", bps: 10, side: "sell" as const };
    const inBuy = { token: "0xBUY", amount: 50n, side: "buy" as const };
    expect(quoteAmounts({ sellAmount: 1_000_000n, outputAmount: 1_580_000n, fee, gas: inBuy })).toEqual({
      outputAmount: 1_580_000n,
      fee: 1_000n,
      gasFee: 50n,
      received: 1_579_950n,
      takerPays: 1_001_000n,
      proceeds: 1_000_000n,
    });
    const inSell = { token: "0xSELL", amount: 5_000n, side: "sell" as const };
    expect(quoteAmounts({ sellAmount: 1_000_000n, outputAmount: 1_580_000n, fee, gas: inSell })).toMatchObject({
      fee: 1_000n,
      received: 1_580_000n,
      takerPays: 1_006_000n,
      proceeds: 1_000_000n,
    });
    // A sell-side fee does not come out of the output: only a buy-side gas fee can leave nothing received.
    expect(quoteAmounts({ sellAmount: 1n, outputAmount: 50n, fee, gas: inBuy })).toBeNull();
    expect(quoteAmounts({ sellAmount: 9_999n, outputAmount: 1n, fee, gas: inSell })).toMatchObject({
      fee: 9n,
      received: 1n,
      takerPays: 15_008n,
    });
  });

  it("charges a gas token outside the pair in the buy token", () => {
    expect(gasChargeFor({ fixed: "9", token: "0xOTHER" }, "0xSELL", "0xBUY", same)).toMatchObject({ token: "0xBUY" });
  });

  it("rounds the fee down and refuses an output that does not cover the fees", () => {
    expect(protocolFee(9_999n, 10)).toBe(9n);
    const gas = { token: "b", amount: 100n, side: "buy" as const };
    expect(quoteAmounts({ sellAmount: 1n, outputAmount: 100n, fee: onOutput(0), gas })).toBeNull();
    expect(quoteAmounts({ sellAmount: 1n, outputAmount: 101n, fee: onOutput(0), gas })?.received).toBe(1n);
  });
});

const bid = (over: Partial<ValidBid>): ValidBid => ({
  resolver: "0xA",
  name: "a",
  outputAmount: 100n,
  received: 100n,
  latencyMs: 10,
  reliability: null,
  demoted: false,
  signature: "0x",
  ...over,
});

describe("rankBids", () => {
  it("ranks by received, then reliability, then latency", () => {
    const { offers, winner } = rankBids(
      [
        bid({ resolver: "slow", received: 100n, latencyMs: 50 }),
        bid({ resolver: "fast", received: 100n, latencyMs: 5 }),
        bid({ resolver: "reliable", received: 100n, latencyMs: 90, reliability: 0.9 }),
        bid({ resolver: "rich", received: 101n, latencyMs: 99 }),
      ],
      { bandGuardBps: 300, bounds: null },
    );
    expect(offers.map((o) => [o.resolver, o.rank])).toEqual([
      ["rich", 1],
      ["reliable", 2],
      ["fast", 3],
      ["slow", 4],
    ]);
    expect(winner?.resolver).toBe("rich");
    expect(offers.filter((o) => o.won)).toHaveLength(1);
  });

  it("steers away from bids outside the band guard, on both sides, and from demoted resolvers", () => {
    const { offers, winner, steering } = rankBids(
      [
        bid({ resolver: "cheap", outputAmount: 10n, received: 10n }),
        bid({ resolver: "demoted", outputAmount: 500n, received: 500n, demoted: true }),
        bid({ resolver: "lowball", outputAmount: 50n, received: 50n }),
        bid({ resolver: "fair", outputAmount: 300n, received: 300n }),
        bid({ resolver: "too-good", outputAmount: 2n ** 256n - 1n, received: 2n ** 256n - 2n }),
      ],
      { bandGuardBps: 300, bounds: { min: 100n, max: 1_000n } },
    );
    expect(offers.map((o) => [o.resolver, o.status])).toEqual([
      ["too-good", "outside_band"],
      ["demoted", "demoted"],
      ["fair", "won"],
      ["lowball", "outside_band"],
      ["cheap", "outside_band"],
    ]);
    expect(winner?.resolver).toBe("fair");
    expect(steering).toEqual({
      bandGuardBps: 300,
      minOutput: "100",
      maxOutput: "1000",
      outsideBand: ["too-good", "lowball", "cheap"],
      demoted: ["demoted"],
    });
  });

  it("lets both bounds win, and has no winner when steering excludes every bid", () => {
    const bounds = { min: 2n, max: 5n };
    expect(rankBids([bid({ outputAmount: 2n })], { bandGuardBps: 300, bounds }).winner).not.toBeNull();
    expect(rankBids([bid({ outputAmount: 5n })], { bandGuardBps: 300, bounds }).winner).not.toBeNull();
    expect(rankBids([bid({ outputAmount: 1n })], { bandGuardBps: 300, bounds }).winner).toBeNull();
    expect(rankBids([bid({ outputAmount: 6n })], { bandGuardBps: 300, bounds }).winner).toBeNull();
    expect(rankBids([bid({})], { bandGuardBps: 300, bounds: null }).steering).toBeNull();
  });
});

describe("withoutOffers", () => {
  it("leaves out the dropped offers and ranks the rest again from 1, statuses kept", () => {
    const { offers } = rankBids(
      [
        bid({ resolver: "a", received: 4n }),
        bid({ resolver: "b", received: 3n, demoted: true }),
        bid({ resolver: "c", received: 2n }),
        bid({ resolver: "d", received: 1n }),
      ],
      { bandGuardBps: 300, bounds: null },
    );
    const dropped = offers.filter((o) => o.resolver === "b" || o.resolver === "c");
    expect(withoutOffers(offers, dropped).map((o) => [o.resolver, o.rank, o.status])).toEqual([
      ["a", 1, "won"],
      ["d", 2, "lost"],
    ]);
    expect(withoutOffers(offers, [])).toEqual(offers);
  });
});

describe("withStanding", () => {
  it("marks each bid's resolver demoted or not and its reliability by address, whatever its case", () => {
    const standing = { demoted: new Set(["0xa"]), reliability: new Map([["0xb", 0.75]]) };
    const kept = { ...bid({ resolver: "0xB" }), amounts: "kept" };
    const [a, b] = withStanding([bid({ resolver: "0xA", reliability: 0.5 }), kept], standing);
    expect(a).toMatchObject({ resolver: "0xA", demoted: true, reliability: null });
    expect(b).toEqual({ ...kept, demoted: false, reliability: 0.75 });
  });
});

describe("decideWinner: bid signatures", () => {
  const terms = { rfqId: "r", quoteId: "q" } as RfqTerms;
  const signing: QuoteSigning = { kind: "taker", takerSigning: (_t, w) => ({ resolver: w.resolver }) };
  const amountsOf = ({ bid: { outputAmount } }: RankedOffer) => ({
    outputAmount,
    fee: 0n,
    gasFee: 0n,
    received: outputAmount,
    takerPays: 1n,
    proceeds: 1n,
  });
  const decide = (offers: RankedOffer[], forged: string[], checked: string[] = [], free = (_: string) => true) =>
    decideWinner(
      {
        signing,
        terms,
        nodes: new Map(),
        fresh: Promise.resolve(),
        clock: new FakeClock(),
        amountsOf,
        verifyBid: (o) => {
          checked.push(o.resolver);
          return !forged.includes(o.resolver);
        },
        askToSign: async () => null,
        strike: () => {},
        hold: (o) => (free(o.resolver) ? () => {} : null),
        legTerms: () => Promise.reject(new Error("no parts were bid")),
      },
      offers,
    );
  const ranked = () =>
    rankBids(
      [
        bid({ resolver: "x", received: 9n, outputAmount: 9n, demoted: true }),
        bid({ resolver: "a", received: 5n, outputAmount: 5n }),
        bid({ resolver: "b", received: 4n, outputAmount: 4n }),
        bid({ resolver: "c", received: 3n, outputAmount: 3n }),
      ],
      { bandGuardBps: 300, bounds: null },
    ).offers;

  it("checks only the winner's signature when it holds", async () => {
    const checked: string[] = [];
    const decision = await decide(ranked(), [], checked);
    expect(checked).toEqual(["a"]);
    expect(decision.winner?.offer.resolver).toBe("a");
    expect(decision.forged).toEqual([]);
  });

  it("passes a forged winner's win down the ranking and leaves it out of the offers, ranks renumbered", async () => {
    const checked: string[] = [];
    const decision = await decide(ranked(), ["a", "b"], checked);
    // The demoted offer cannot win, so it is not checked now.
    expect(checked).toEqual(["a", "b", "c"]);
    expect(decision.forged.map((o) => o.resolver)).toEqual(["a", "b"]);
    expect(decision.winner?.offer).toMatchObject({ resolver: "c", rank: 2, status: "won", won: true });
    expect(decision.winner?.signing).toEqual({ resolver: "c" });
    expect(decision.offers.map((o) => [o.resolver, o.rank, o.status])).toEqual([
      ["x", 1, "demoted"],
      ["c", 2, "won"],
    ]);
  });

  it("passes the win of an offer its resolver's inventory free of the taker's holds does not cover down the ranking", async () => {
    const decision = await decide(ranked(), [], [], (resolver) => resolver !== "a");
    expect(decision.winner?.offer).toMatchObject({ resolver: "b", won: true });
    expect(decision.offers.map((o) => [o.resolver, o.won])).toEqual([
      ["x", false],
      ["a", false],
      ["b", true],
      ["c", false],
    ]);
  });

  it("has no winner when every winnable signature is forged", async () => {
    const decision = await decide(ranked(), ["a", "b", "c"]);
    expect(decision.winner).toBeNull();
    expect(decision.offers.map((o) => [o.resolver, o.rank, o.won])).toEqual([["x", 1, false]]);
  });
});

describe("outputBounds", () => {
  const band = { base: "USD", quote: "NGN", mid: 1580, low: 1570, high: 1590, sources: 4, at: 0 };
  const args = { band, sellDecimals: 6, buyDecimals: 6, bandGuardBps: 300 };

  it("prices naira sold for dollars between 1/(high + guard) and 1/(low - guard)", () => {
    // 1,590 NGN: at most 1,590 × 1.03 NGN/USD gives the least dollars; 1,570 × 0.97 the most.
    const bounds = outputBounds({ ...args, sellAsset: "NGN", buyAsset: "USD", sellAmount: 1_590_000_000n });
    // 1,590 / (1,590 × 1.03) = 0.970873… USD (rounded down); 1,590 / (1,570 × 0.97) = 1.044060… (up).
    expect(bounds).toEqual({ min: 970_873n, max: 1_044_061n });
  });

  it("prices dollars sold for naira between low - guard and high + guard, across decimals", () => {
    // 2 USD → NGN with 2 decimals: 2 × 1,570 × 0.97 = 3,045.80 and 2 × 1,590 × 1.03 = 3,275.40.
    expect(
      outputBounds({ ...args, sellAsset: "USD", buyAsset: "NGN", sellAmount: 2_000_000n, buyDecimals: 2 }),
    ).toEqual({ min: 304_580n, max: 327_540n });
  });

  it("has no bounds without a band or for a pair the band does not price", () => {
    expect(outputBounds({ ...args, band: null, sellAsset: "NGN", buyAsset: "USD", sellAmount: 1n })).toBeNull();
    expect(outputBounds({ ...args, sellAsset: "EUR", buyAsset: "USD", sellAmount: 1n })).toBeNull();
    expect(outputBounds({ ...args, sellAsset: null, buyAsset: null, sellAmount: 1n })).toBeNull();
  });

  it("counts a band fresh for 60 s", () => {
    const at = 1_000_000;
    expect(freshBand({ ...band, at }, at + BAND_FRESH_MS)).not.toBeNull();
    expect(freshBand({ ...band, at }, at + BAND_FRESH_MS + 1)).toBeNull();
    expect(freshBand(null, at)).toBeNull();
  });
});

describe("Auction", () => {
  it("closes early once every asked node has answered", async () => {
    const auction = new Auction(
      "r",
      new Map([
        ["a", 0],
        ["b", 0],
      ]),
      1_500,
    );
    expect(auction.claim("a", 10)).toBe("ok");
    auction.decline();
    expect(auction.isOpen).toBe(true);
    expect(auction.claim("b", 20)).toBe("ok");
    auction.accept("b", bid({ resolver: "b" }));
    expect(auction.isOpen).toBe(false);
    await auction.done;
    expect(auction.replies()).toEqual({ valid: 1, rejected: 0, declined: 1, noReply: 0, late: 0 });
  });

  it("refuses replies from nodes not asked, second replies, and counts late ones", async () => {
    const auction = new Auction(
      "r",
      new Map([
        ["a", 0],
        ["b", 0],
      ]),
      1_500,
    );
    expect(auction.claim("z", 1)).toBe("not_asked");
    expect(auction.claim("a", 1)).toBe("ok");
    auction.reject("a");
    expect(auction.claim("a", 2)).toBe("duplicate");
    auction.close();
    expect(auction.claim("b", 1_600)).toBe("late");
    expect(auction.replies()).toEqual({ valid: 0, rejected: 1, declined: 0, noReply: 0, late: 1 });
  });

  it("counts a bid disqualified after the close as rejected, not valid", () => {
    const auction = new Auction("r", new Map([["a", 0]]), 1_500);
    expect(auction.claim("a", 1)).toBe("ok");
    auction.accept("a", bid({ resolver: "0xA" }));
    auction.disqualify("0xa");
    expect(auction.bids).toEqual([]);
    expect(auction.replies()).toEqual({ valid: 0, rejected: 1, declined: 0, noReply: 0, late: 0 });
    auction.disqualify("0xa");
    expect(auction.replies()).toMatchObject({ rejected: 1 });
  });
});
