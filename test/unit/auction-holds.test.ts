import { describe, expect, it } from "vitest";
import type { ChainAdapter } from "../../src/chains/adapter";
import { SIGN_TIMEOUT_MS } from "../../src/protocol";
import type { RfqFrame } from "../../src/protocol/relay-frames";
import type { QuoteInput } from "../../src/types";
import { fakeCorridor, quoteInput, USDC } from "../support/fake-corridor";

const quoted = <T extends { kind: string }>(outcome: T) => {
  if (outcome.kind !== "quoted") throw new Error(`not quoted: ${JSON.stringify(outcome)}`);
  return outcome as Extract<T, { kind: "quoted" }>;
};

type Corridor = ReturnType<typeof fakeCorridor>;

const ONE = "0x1111111111111111111111111111111111111111";
const TWO = "0x2222222222222222222222222222222222222222";

/** A signed bid of `name` on one given rfq (the fake's `bid` answers only the latest). */
async function bidOn(c: Corridor, name: string, rfq: RfqFrame, outputAmount: bigint): Promise<void> {
  const node = c.node(name);
  const signature = await node.signBid(rfq, outputAmount);
  c.reply(name, { type: "bid", rfqId: rfq.rfqId, outputAmount: outputAmount.toString(), signature });
}

/** Node `name`'s rfqs once it has been sent `count`. */
const rfqs = (c: Corridor, name: string, count: number): Promise<RfqFrame[]> => c.node(name).sentAtLeast("rfq", count);

/** One auction for `taker`: beta bids 0.99 USDC, and alpha 1 USDC if it is asked; the name of the winner. */
async function auction(c: Corridor, taker = ONE): Promise<string | undefined> {
  const [alphaAsked, betaAsked] = [c.node("alpha").sent("rfq").length, c.node("beta").sent("rfq").length];
  const input: QuoteInput = quoteInput({ taker, recipient: taker });
  const pending = c.house.requestQuote(input);
  const betaRfq = (await rfqs(c, "beta", betaAsked + 1)).at(-1) as RfqFrame;
  // One frame goes to every asked node at once: alpha has had its rfq by now, if it was asked.
  const alphaRfq = c.node("alpha").sent("rfq")[alphaAsked];
  await bidOn(c, "beta", betaRfq, 990_000n);
  if (alphaRfq) await bidOn(c, "alpha", alphaRfq, 1_000_000n);
  return quoted(await pending).quote.resolver?.name;
}

const codes = (c: Corridor, name: string) =>
  c
    .node(name)
    .sent("error")
    .map((e) => e.code);

const heldFor = (c: Corridor, taker: string, name: string) =>
  c.house.holds.held(taker, c.node(name).session.address, USDC, c.clock.now(), null);

describe("AuctionHouse: inventory held for a taker's open quotes", () => {
  it("lets a node holding 1.5 USDC win one of one taker's two quotes open at once; the other goes to the next bid", async () => {
    const c = fakeCorridor({ chainHoldings: { alpha: 1_500_000n } });
    const input = quoteInput({ taker: ONE, recipient: ONE });
    const first = c.house.requestQuote(input);
    await c.node("beta").next("rfq");
    const second = c.house.requestQuote(input);
    await Promise.all([rfqs(c, "alpha", 2), rfqs(c, "beta", 2)]);
    // Both bids of alpha come in before either auction decides: each is within what it holds.
    for (const name of ["alpha", "beta"]) {
      const [r1, r2] = c.node(name).sent("rfq") as [RfqFrame, RfqFrame];
      await bidOn(c, name, r1, name === "alpha" ? 1_000_000n : 990_000n);
      await bidOn(c, name, r2, name === "alpha" ? 1_000_000n : 990_000n);
    }
    const winners = [quoted(await first), quoted(await second)].map((q) => q.quote.resolver?.name).sort();
    expect(winners).toEqual(["alpha", "beta"]);
    expect(heldFor(c, ONE, "alpha")).toBe(1_000_000n);
  });

  it("rejects a taker's bid over what its own open quotes leave free, and lets the next bid win", async () => {
    const c = fakeCorridor({ chainHoldings: { alpha: 1_500_000n } });
    expect(await auction(c, ONE)).toBe("alpha");
    expect(await auction(c, ONE)).toBe("beta");
    expect(codes(c, "alpha")).toEqual(["insufficient_inventory"]);
  });

  it("holds nothing of one taker's quotes against another taker", async () => {
    const c = fakeCorridor({ chainHoldings: { alpha: 1_000_000n } });
    expect(await auction(c, ONE)).toBe("alpha");
    expect(await auction(c, TWO)).toBe("alpha");
    expect(await auction(c, ONE)).toBe("beta");
    expect([heldFor(c, ONE, "alpha"), heldFor(c, TWO, "alpha")]).toEqual([1_000_000n, 1_000_000n]);
    expect(codes(c, "alpha")).toEqual([]);
  });

  it("does not ask a node for a taker whose open quotes hold all it has", async () => {
    const c = fakeCorridor({ chainHoldings: { alpha: 1_000_000n } });
    expect(await auction(c)).toBe("alpha");
    expect(await auction(c)).toBe("beta");
    expect(c.node("alpha").sent("rfq")).toHaveLength(1);
    expect(codes(c, "alpha")).toEqual([]);
  });

  it("frees a failed or cancelled quote's hold at once, and keeps a submitted one's", async () => {
    const c = fakeCorridor({ chainHoldings: { alpha: 1_000_000n } });
    const lastQuote = () => [...c.store.quotes.keys()].at(-1) as string;
    expect(await auction(c)).toBe("alpha");
    c.house.holds.moved([{ quoteId: lastQuote(), fill: { status: "failed" } }], c.clock.now());
    expect(await auction(c)).toBe("alpha");
    c.house.holds.moved([{ quoteId: lastQuote(), ended: true }], c.clock.now());
    expect(await auction(c)).toBe("alpha");
    c.house.holds.moved([{ quoteId: lastQuote(), fill: { status: "submitted" } }], c.clock.now());
    expect(await auction(c)).toBe("beta");
  });

  it("holds a settled quote's output until a read started after the settlement is in", async () => {
    const options = { chainHoldings: { alpha: 1_000_000n }, readAt: { alpha: 0 } };
    const c = fakeCorridor(options);
    expect(await auction(c)).toBe("alpha");
    const quoteId = [...c.store.quotes.keys()].at(-1) as string;
    c.house.holds.moved([{ quoteId, fill: { status: "settled" } }], c.clock.now());
    // The last read still shows the 1 USDC that left: nothing is free, for this taker or another.
    expect(await auction(c)).toBe("beta");
    expect(await auction(c, TWO)).toBe("beta");
    options.chainHoldings.alpha = 2_000_000n;
    options.readAt.alpha = c.clock.now();
    expect(await auction(c)).toBe("alpha");
  });

  it("takes no honesty sample of a ladder the taker's own open quotes hold the inventory of, and still one above what it holds", async () => {
    const c = fakeCorridor({ chainHoldings: { alpha: 1_500_000n }, ladders: { alpha: 1_000_000n } });
    expect(await auction(c)).toBe("alpha");
    expect(await auction(c)).toBe("beta");
    await c.settled();
    // One sample, of the first auction: the second's ladder value was held for the first quote.
    expect(c.ladderBids.flatMap(({ bids }) => bids.map((b) => b.outputAmount))).toEqual([1_000_000n]);

    const bluff = fakeCorridor({ chainHoldings: { alpha: 500_000n }, ladders: { alpha: 1_000_000n } });
    expect(await auction(bluff)).toBe("beta");
    await bluff.settled();
    expect(bluff.ladderBids.flatMap(({ bids }) => bids.map((b) => b.outputAmount))).toEqual([0n]);
  });

  it("where the winner signs after the auction, holds before asking it to sign and lets go when it does not", async () => {
    /** The real EVM adapter with winner signing whose signature is `<address>:<transaction>`. */
    const winnerSigns = (real: ChainAdapter): ChainAdapter => ({
      ...real,
      signing: {
        kind: "winner",
        keepFresh: async () => {},
        request: (terms, winner) => ({ transaction: `tx|${terms.rfqId}|${winner.resolver}`, facts: {} }),
        verify: (request, keys, signature) => signature === `${keys.address}:${request.transaction}`,
        takerSigning: (request) => ({ transaction: request.transaction }),
      },
    });
    const c = fakeCorridor({ adapter: winnerSigns, chainHoldings: { alpha: 1_500_000n } });
    const [alpha, beta] = [c.node("alpha"), c.node("beta")];
    const taker = quoteInput().taker;
    const pending = c.house.requestQuote(quoteInput());
    await c.bid("alpha", 1_000_000n);
    await c.bid("beta", 990_000n);
    await alpha.next("sign");
    expect([heldFor(c, taker, "alpha"), heldFor(c, taker, "beta")]).toEqual([1_000_000n, 0n]);
    await c.clock.advance(SIGN_TIMEOUT_MS);
    const { rfqId, transaction } = await beta.next("sign");
    c.reply("beta", { type: "signed", rfqId, signature: `${beta.session.address}:${transaction}` });
    expect(quoted(await pending).quote.resolver?.name).toBe("beta");
    expect([heldFor(c, taker, "alpha"), heldFor(c, taker, "beta")]).toEqual([0n, 990_000n]);
  });
});
