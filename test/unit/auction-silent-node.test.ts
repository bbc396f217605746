import { describe, expect, it } from "vitest";
import { fakeCorridor, quoteInput } from "../support/fake-corridor";

type Corridor = ReturnType<typeof fakeCorridor>;

/** Waits until alpha has been sent its rfq number `n` (counting from 1). */
async function rfqSent(c: Corridor, n: number) {
  while (c.node("alpha").sent("rfq").length < n) await c.clock.advance(0);
}

/**
 * Asks for a quote; alpha and beta bid as soon as it is asked, and the window runs out unless the auction
 * closed before. How long it took and the quote's replies.
 */
async function quoteWithAlphaAndBeta(c: Corridor) {
  const started = c.clock.now();
  const before = c.node("alpha").sent("rfq").length;
  let closedAt: number | null = null;
  const pending = c.house.requestQuote(quoteInput()).then((outcome) => {
    closedAt = c.clock.now();
    return outcome;
  });
  await rfqSent(c, before + 1);
  await c.bid("alpha", 1_000_000n);
  await c.bid("beta", 999_000n);
  await c.clock.advance(0);
  if (closedAt === null) await c.clock.advance(c.config.rfqWindowMs);
  const outcome = await pending;
  if (outcome.kind !== "quoted") throw new Error(`not quoted: ${JSON.stringify(outcome)}`);
  return { tookMs: (closedAt ?? c.clock.now()) - started, replies: outcome.quote.replies };
}

describe("AuctionHouse: a silent node costs only itself", () => {
  it("is not waited for once the nodes that answer are known, is asked again only after its backoff, and is waited for again once it answers", async () => {
    const c = fakeCorridor({ nodes: ["alpha", "beta", "silent"], rfqWindowMs: 400 });
    const silent = c.node("silent");
    // Nobody has answered yet: the first auction waits for every asked node, the window out.
    const first = await quoteWithAlphaAndBeta(c);
    expect(first.tookMs).toBeGreaterThanOrEqual(400);
    expect(first.replies).toMatchObject({ valid: 2, noReply: 1 });
    // It missed: for a second it is not asked, and the auction closes on alpha's and beta's bids.
    const second = await quoteWithAlphaAndBeta(c);
    expect(second.tookMs).toBeLessThan(200);
    expect(second.replies).toMatchObject({ valid: 2, noReply: 0 });
    expect(silent.sent("rfq")).toHaveLength(1);
    // After its backoff it is asked again (a probe), and not waited for.
    await c.clock.advance(1_000);
    const probed = await quoteWithAlphaAndBeta(c);
    expect(probed.tookMs).toBeLessThan(200);
    expect(probed.replies).toMatchObject({ valid: 2, noReply: 1 });
    expect(silent.sent("rfq")).toHaveLength(2);
    // It answers the probe within the window, after the close: it answers again, and is waited for.
    await c.decline("silent");
    const started = c.clock.now();
    const awaited = c.house.requestQuote(quoteInput());
    await rfqSent(c, 4);
    expect(silent.sent("rfq")).toHaveLength(3);
    await c.bid("alpha", 1_000_000n);
    await c.bid("beta", 999_000n);
    await c.clock.advance(100);
    await c.decline("silent");
    const outcome = await awaited;
    expect(c.clock.now() - started).toBe(100);
    expect(outcome.kind === "quoted" && outcome.quote.replies).toMatchObject({ valid: 2, declined: 1, noReply: 0 });
  });

  it("asks at most maxNodesPerRfq nodes, the others in turn, so every node is asked", async () => {
    const names = ["alpha", "beta", "n3", "n4", "n5", "n6"];
    const c = fakeCorridor({ nodes: names, rfqWindowMs: 50, maxNodesPerRfq: 4 });
    // Two quotes asked at once: the second asks the two the first left out, then two in turn.
    const both = Promise.all([c.house.requestQuote(quoteInput()), c.house.requestQuote(quoteInput())]);
    await c.clock.advance(50);
    await both;
    const rfqs = names.map((n) => c.node(n).sent("rfq").length);
    // Four asked each time, of six: each asked once, two of them twice.
    expect(rfqs.reduce((a, b) => a + b, 0)).toBe(8);
    expect([...rfqs].sort()).toEqual([1, 1, 1, 1, 2, 2]);
  });
});
