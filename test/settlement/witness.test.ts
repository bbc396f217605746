import { env } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Quote } from "../../src/schemas/quote";
import { type Bidder, bidder, marketSellAmount, quoteBody } from "../support/bidder";
import { eventually } from "../support/ws-client";
import { app, fundedResolver, getQuote, newTaker, seedQuote, signQuote, submit } from "./helpers";

/**
 * The taker's witness binds what it gives and gets, not who pays it (docs/settlement.md, "When the winner
 * fades"): a quote asked with `slippageBps` answers `minReceived` and a witness that names no resolver, and
 * bad input of either is refused naming its field, with nothing recorded.
 */

let sellAmount = "";
beforeAll(async () => {
  sellAmount = await marketSellAmount((path) => app.request(path, {}, env));
});

let open: Bidder[] = [];
afterEach(() => {
  for (const b of open) b.socket.close();
  open = [];
});

/** A node of a funded resolver account, heartbeating and fresh. */
async function resolverNode(index: number, name: string): Promise<Bidder> {
  const node = await bidder(index, name);
  open.push(node);
  await eventually(async () => {
    const { nodes } = (await (await app.request("/v1/nodes", {}, env)).json()) as {
      nodes: { address: string; fresh: boolean }[];
    };
    expect(nodes.some((n) => n.fresh && n.address.toLowerCase() === node.account.address.toLowerCase())).toBe(true);
  });
  return node;
}

const postQuote = (body: Record<string, unknown>) =>
  app.request(
    "/v1/quotes",
    { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } },
    env,
  );

type Signable = Quote & { typedData: { message: { witness: Record<string, string> } } };

describe("POST /v1/quotes with slippageBps", () => {
  it("answers minReceived 1 % under received, and a witness that signs it and names no resolver", async () => {
    const node = await resolverNode(0, "alpha");
    const taker = await newTaker();
    const pending = postQuote(quoteBody({ sellAmount, taker: taker.address, slippageBps: 100 }));
    await node.bid(await node.nextRfq(), 1_000_000n);
    const res = await pending;
    expect(res.status).toBe(200);
    const quote = (await res.json()) as Signable;
    const received = BigInt(quote.received);
    expect(quote.slippageBps).toBe(100);
    expect(quote.minReceived).toBe(((received * 9_900n) / 10_000n).toString());
    const { witness } = quote.typedData.message;
    expect(witness.minReceived).toBe(quote.minReceived);
    expect(Object.keys(witness).sort()).toEqual(
      ["buyToken", "deadline", "gasFee", "gasFeeToken", "minReceived", "quoteId", "recipient"].sort(),
    );
    expect(JSON.stringify(quote.typedData)).not.toContain(node.account.address.slice(2).toLowerCase());
    expect((await getQuote(quote.quoteId)).minReceived).toBe(quote.minReceived);
  });

  it.each<[unknown, string]>([
    [101, "above limits.maxSlippageBps"],
    [-1, "negative"],
    [1.5, "not an integer"],
    ["50", "not a number"],
  ])("refuses slippageBps %s (%s) with 400 invalid_request naming it", async (slippageBps) => {
    const res = await postQuote(quoteBody({ sellAmount, slippageBps }));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; issues: { path: string }[] };
    expect(body.error).toBe("invalid_request");
    expect(body.issues.map((i) => i.path)).toContain("slippageBps");
  });
});

describe("a submission whose witness minReceived is not the quote's", () => {
  it("is 400 invalid_request naming minReceived, and records nothing", async () => {
    const taker = await newTaker();
    const { quoteId, quote, typedData } = await seedQuote({
      taker: taker.address,
      resolver: fundedResolver(2),
      slippageBps: 50,
    });
    const signature = await signQuote(taker, typedData);
    const other = (BigInt(quote.minReceived) - 1n).toString();
    const res = await submit({ quoteId, signature, minReceived: other });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "invalid_request", issues: [{ path: "minReceived" }] });
    const after = await getQuote(quoteId);
    expect(after.status).toBe("quoted");
    expect(after.executions).toEqual([]);
    expect(after.timeline.map((t) => t.event)).toEqual(["requested", "quoted"]);
  });
});
