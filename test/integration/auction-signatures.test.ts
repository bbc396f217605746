import { env } from "cloudflare:test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import type { RfqFrame } from "../../src/protocol/relay-frames";
import type { Quote } from "../../src/schemas/quote";
import { type Bidder, quoteBody as baseBody, bidder, marketSellAmount, signBid } from "../support/bidder";
import { eventually } from "../support/ws-client";

/**
 * Bid signatures over real sockets: accepted unchecked, the winner's checked before the answer and the
 * others' after it (docs/resolver-protocol.md, "When signatures are checked"). Each forger is struck, so
 * this file keeps its own relay (test/support/apply-migrations.ts).
 */

const app = createApp();
let sellAmount = "";
beforeAll(async () => {
  sellAmount = await marketSellAmount((path) => app.request(path, {}, env));
});
type QuoteResponse = Quote & { typedData: Record<string, unknown> };

const requestQuote = async () => {
  const res = await app.request(
    "/v1/quotes",
    { method: "POST", body: JSON.stringify(baseBody({ sellAmount })), headers: { "content-type": "application/json" } },
    env,
  );
  return { status: res.status, body: (await res.json()) as QuoteResponse };
};
const getQuote = async (id: string) => (await (await app.request(`/v1/quotes/${id}`, {}, env)).json()) as Quote;

let open: Bidder[] = [];
/**
 * Nodes by name and dev account: a struck node stays demoted for the rest of the file, so each test's
 * forger has an account no other test bids with.
 */
async function nodes(...named: [name: string, account: number][]): Promise<Bidder[]> {
  const names = named.map(([n]) => n);
  open = await Promise.all(named.map(([n, i]) => bidder(i, n)));
  await eventually(async () => {
    const res = await app.request("/v1/nodes", {}, env);
    const { nodes: list } = (await res.json()) as { nodes: { fresh: boolean; name: string }[] };
    expect(list.filter((n) => names.includes(n.name) && n.fresh)).toHaveLength(names.length);
  });
  return open;
}

afterEach(() => {
  for (const b of open) b.socket.close();
  open = [];
});

/** A bid whose signature is a key's that no node here uses. */
async function forgedBid(n: Bidder, rfq: RfqFrame, outputAmount: bigint): Promise<void> {
  const signature = await signBid(privateKeyToAccount(generatePrivateKey()), rfq, outputAmount);
  n.socket.send({ type: "bid", rfqId: rfq.rfqId, outputAmount: outputAmount.toString(), signature });
}

/** The resolver's demotion reason in the directory, once its strike is written. */
async function demotionReason(address: string): Promise<string | null> {
  const { resolvers } = (await (await app.request("/v1/resolvers", {}, env)).json()) as {
    resolvers: { address: string; demotionReason: string | null }[];
  };
  return resolvers.find((r) => r.address.toLowerCase() === address.toLowerCase())?.demotionReason ?? null;
}

describe("POST /v1/quotes: forged bid signatures", () => {
  it("passes a forged winning bid's win to the next bid, rejects it and strikes its node", async () => {
    const [good, bad] = await nodes(["alpha", 0], ["mallory", 1]);
    const pending = requestQuote();
    const [rg, rb] = await Promise.all([good?.nextRfq(), bad?.nextRfq()]);
    if (!good || !bad || !rg || !rb) throw new Error("no rfq");
    await good.bid(rg, 990_000n);
    await forgedBid(bad, rb, 1_000_000n);
    const { status, body } = await pending;
    expect(status).toBe(200);
    expect(body.resolver?.name).toBe("alpha");
    expect(body.replies).toEqual({ valid: 1, rejected: 1, declined: 0, noReply: 0, late: 0 });
    expect(body.offers.map((o) => [o.name, o.rank, o.won])).toEqual([["alpha", 1, true]]);
    expect(await bad.socket.next("error")).toMatchObject({ code: "bad_signature" });
    expect(await bad.socket.next("error")).toMatchObject({ code: "strike" });
    expect(await bad.socket.next("demoted")).toMatchObject({ reason: expect.stringContaining("forged signature") });
    // Every bidder's result goes out once the taker's answer has left.
    expect(await bad.socket.resultOf(rb.rfqId)).toMatchObject({ rfqId: rb.rfqId, won: false, rank: null });
    const { typedData: _t, ...record } = body;
    expect(await getQuote(body.quoteId)).toStrictEqual(record);
  });

  it("answers with a forged losing bid, then strikes it and corrects the stored quote", async () => {
    const [a, b, mallory] = await nodes(["alpha", 0], ["beta", 2], ["mallory", 3]);
    const pending = requestQuote();
    const [ra, rb, rm] = await Promise.all([a?.nextRfq(), b?.nextRfq(), mallory?.nextRfq()]);
    if (!a || !b || !mallory || !ra || !rb || !rm) throw new Error("no rfq");
    await a.bid(ra, 1_000_000n);
    await b.bid(rb, 990_000n);
    await forgedBid(mallory, rm, 995_000n);
    const { status, body } = await pending;
    expect(status).toBe(200);
    expect(body.resolver?.name).toBe("alpha");
    // Only the winner's signature is checked before the answer: it still shows the forged offer.
    expect(body.replies).toMatchObject({ valid: 3, rejected: 0 });
    expect(body.offers.map((o) => o.name)).toEqual(["alpha", "mallory", "beta"]);

    expect(await mallory.socket.next("error")).toMatchObject({ code: "bad_signature" });
    const corrected = await eventually(async () => {
      const quote = await getQuote(body.quoteId);
      expect(quote.replies).toEqual({ valid: 2, rejected: 1, declined: 0, noReply: 0, late: 0 });
      return quote;
    });
    expect(corrected.offers.map((o) => [o.name, o.rank, o.status, o.won])).toEqual([
      ["alpha", 1, "won", true],
      ["beta", 2, "lost", false],
    ]);
    expect(corrected.offersHash).not.toBe(body.offersHash);
    // The rest of the quote is the answer's.
    const { typedData: _t, offers: _o, replies: _r, offersHash: _h, ...rest } = body;
    expect(corrected).toMatchObject(rest);
    await eventually(async () =>
      expect(await demotionReason(mallory.account.address)).toMatch(/^strike 1: bid on q_\w+ with a forged signature/),
    );
  });
});
