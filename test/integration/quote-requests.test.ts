import { env } from "cloudflare:test";
import { privateKeyToAccount } from "viem/accounts";
import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { loadConfig } from "../../src/config/load";
import { localConfig } from "../../src/config/local";
import { primaryEvmChain } from "../../src/config/record";
import { cancelQuoteMessage } from "../../src/quotes/messages";
import type { Quote } from "../../src/schemas/quote";
import { type Bidder, bidder, quoteBody } from "../support/bidder";
import { seedQuote } from "../support/records";
import { EVM, eventually, SOL } from "../support/ws-client";

const app = createApp();
const post = async (path: string, body: unknown) => {
  const res = await app.request(
    path,
    { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } },
    env,
  );
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
};

describe("POST /v1/quotes: refusals before any auction", () => {
  it.each([
    ["a missing field", { sellToken: EVM.cngn, buyToken: EVM.usdc, taker: quoteBody().taker }, "sellAmount"],
    ["a fractional amount", quoteBody({ sellAmount: "1.5" }), "sellAmount"],
    ["a zero amount", quoteBody({ sellAmount: "0" }), "sellAmount"],
    ["a taker that is not an address", quoteBody({ taker: "alice" }), "taker"],
    ["a recipient that is not an address", quoteBody({ recipient: "0x12" }), "recipient"],
  ])("answers invalid_request for %s", async (_what, body, path) => {
    const { status, body: err } = await post("/v1/quotes", body);
    expect(status).toBe(400);
    expect(err.error).toBe("invalid_request");
    expect((err.issues as { path: string }[]).map((i) => i.path)).toContain(path);
  });

  it("answers below_minimum with the minimum", async () => {
    const { status, body } = await post("/v1/quotes", quoteBody({ sellAmount: "999999999" }));
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: "below_minimum", minimum: "1000000000" });
  });

  it.each([
    ["an unknown token", quoteBody({ buyToken: `0x${"11".repeat(20)}` })],
    ["a token against itself", quoteBody({ buyToken: EVM.cngn })],
    ["an unknown chain", quoteBody({ chainId: 999 })],
  ])("answers unsupported_pair for %s", async (_what, body) => {
    const { status, body: err } = await post("/v1/quotes", body);
    expect(status).toBe(400);
    expect(err.error).toBe("unsupported_pair");
  });

  it("auctions a Solana quote among the Solana corridor's nodes: none here, so no_offers", async () => {
    const taker = "9J7NJUkANRnZxTEEAnxRsLuuVZ9SvZF7QzwN2TCWXhcJ";
    const { status, body } = await post("/v1/quotes", {
      chainId: SOL.chainId,
      sellToken: SOL.cngn,
      buyToken: SOL.usdc,
      sellAmount: "1000000000",
      taker,
    });
    expect(status).toBe(404);
    expect(body).toMatchObject({ error: "no_offers", nodesOnline: 0 });
  });
});

describe("POST /v1/quotes: in-flight limit", () => {
  let node: Bidder | undefined;
  afterEach(() => node?.socket.close());

  it("answers 429 too_many_rfqs past maxOutstandingRfqs for one taker, with Retry-After", async () => {
    node = await bidder(0, "slow");
    await eventually(async () => {
      const res = await app.request("/v1/nodes", {}, env);
      expect(((await res.json()) as { nodes: { fresh: boolean }[] }).nodes[0]?.fresh).toBe(true);
    });
    const inFlight = [
      post("/v1/quotes", quoteBody()),
      post("/v1/quotes", quoteBody()),
      post("/v1/quotes", quoteBody()),
    ];
    await Promise.all([node.nextRfq(), node.nextRfq(), node.nextRfq()]);
    const over = await post("/v1/quotes", quoteBody());
    expect(over.status).toBe(429);
    // A taker may retry once an auction window has passed.
    const retryAfter = Math.ceil(loadConfig(env.RELAY_CONFIG).rfqWindowMs / 1000);
    expect(over.body).toMatchObject({ error: "too_many_rfqs", retryAfter });
    expect(over.headers.get("retry-after")).toBe(String(retryAfter));
    const other = post("/v1/quotes", quoteBody({ taker: "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955" }));
    expect((await node.nextRfq()).taker).toBe("0x14dC79964da2C08b23698B3D3cc7Ca32193d9955");
    await Promise.all([...inFlight, other]);
  });
});

describe("POST /v1/quotes: rate limit", () => {
  it("answers 429 rate_limited past 100 requests from one taker in 10 s, other takers unaffected", async () => {
    const taker = "0x00000000000000000000000000000000000000c7";
    // The corridor gives a taker 100 at once and 10 more a second: the burst, and what came back while it ran.
    const started = Date.now();
    const answers: number[] = [];
    let limited: Awaited<ReturnType<typeof post>> | null = null;
    while (!limited && answers.length < 250) {
      const answer = await post("/v1/quotes", quoteBody({ taker }));
      if (answer.status === 429) limited = answer;
      else answers.push(answer.status);
    }
    expect(answers.every((s) => s === 404)).toBe(true);
    const seconds = (Date.now() - started) / 1000;
    expect(answers.length).toBeGreaterThanOrEqual(100);
    expect(answers.length).toBeLessThanOrEqual(100 + Math.ceil(10 * seconds));
    if (!limited) throw new Error("no 429 within 250 requests");
    expect(limited.body).toMatchObject({ error: "rate_limited", retryAfter: 1 });
    expect(limited.headers.get("retry-after")).toBe("1");
    expect((await post("/v1/quotes", quoteBody({ taker: "0x00000000000000000000000000000000000000c8" }))).status).toBe(
      404,
    );
  });
});

describe("quote expiry and cancel", () => {
  const taker = privateKeyToAccount("0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbac7f7fa5c");

  it("reads a quote past its expiry as expired, with an expired event, once", async () => {
    const { quote } = await seedQuote(env.DB, { expiresAt: new Date(Date.now() - 1_000).toISOString() });
    const first = (await (await app.request(`/v1/quotes/${quote.quoteId}`, {}, env)).json()) as Quote;
    expect(first.status).toBe("expired");
    expect(first.timeline.map((t) => t.event)).toEqual(["requested", "quoted", "expired"]);
    const again = (await (await app.request(`/v1/quotes/${quote.quoteId}`, {}, env)).json()) as Quote;
    expect(again.timeline.filter((t) => t.event === "expired")).toHaveLength(1);
  });

  it("cancels an open quote with the taker's signature", async () => {
    const { quote } = await seedQuote(env.DB, { taker: taker.address });
    const signature = await taker.signMessage({ message: cancelQuoteMessage(quote.chainId, quote.quoteId) });
    const { status, body } = await post(`/v1/quotes/${quote.quoteId}/cancel`, { signature });
    expect(status).toBe(200);
    expect(body.status).toBe("cancelled");
    const again = await post(`/v1/quotes/${quote.quoteId}/cancel`, { signature });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: "quote_not_open", status: "cancelled" });
  });

  it("refuses a cancel signed by someone else, or for another quote", async () => {
    const { quote } = await seedQuote(env.DB, { taker: taker.address });
    const stranger = privateKeyToAccount("0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e");
    const forged = await stranger.signMessage({ message: cancelQuoteMessage(quote.chainId, quote.quoteId) });
    expect((await post(`/v1/quotes/${quote.quoteId}/cancel`, { signature: forged })).body.error).toBe("bad_signature");
    const other = await taker.signMessage({ message: cancelQuoteMessage(quote.chainId, `q_${"0".repeat(32)}`) });
    expect((await post(`/v1/quotes/${quote.quoteId}/cancel`, { signature: other })).body.error).toBe("bad_signature");
  });

  it("answers quote_not_open for an expired quote and not_found for an unknown one", async () => {
    const { quote } = await seedQuote(env.DB, {
      taker: taker.address,
      expiresAt: new Date(Date.now() - 1_000).toISOString(),
    });
    const signature = await taker.signMessage({ message: cancelQuoteMessage(quote.chainId, quote.quoteId) });
    const res = await post(`/v1/quotes/${quote.quoteId}/cancel`, { signature });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: "quote_not_open", status: "expired" });
    expect((await post(`/v1/quotes/q_${"1".repeat(32)}/cancel`, { signature })).status).toBe(404);
  });
});

const chain = primaryEvmChain(localConfig);
const [cngn, usdc] = chain.tokens.map((t) => t.address);
const TAKER = "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc";

const quote = (body: Record<string, unknown>) =>
  app.request(
    "/v1/quotes",
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ sellToken: cngn, buyToken: usdc, sellAmount: "1580000000", taker: TAKER, ...body }),
    },
    env,
  );

describe("addresses in a quote request", () => {
  it("refuses a recipient whose EIP-55 checksum is wrong, naming the field", async () => {
    const res = await quote({ recipient: TAKER.replace("D1a", "d1a") });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: "invalid_request",
      issues: [{ path: "recipient", message: expect.stringContaining("checksum") }],
    });
  });

  it("accepts an all-lowercase recipient (no checksum to check)", async () => {
    const res = await quote({ recipient: TAKER.toLowerCase() });
    // No resolver is connected here: past validation, the auction finds nobody.
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: "no_offers" });
  });
});

describe("bodies not sent as JSON", () => {
  it.each([
    ["no content type", {}],
    ["a form (curl -d)", { "content-type": "application/x-www-form-urlencoded" }],
    ["plain text", { "content-type": "text/plain" }],
  ])("answer 400 invalid_request with the error shape: %s", async (_what, headers) => {
    for (const path of ["/v1/quotes", "/v1/executions", "/v1/quotes/q_00000000000000000000000000000000/cancel"]) {
      const res = await app.request(path, { method: "POST", headers, body: '{"quoteId":"q_1"}' }, env);
      expect(res.status, path).toBe(400);
      expect(await res.json()).toMatchObject({
        error: "invalid_request",
        message: expect.stringContaining("application/json"),
        issues: [{ path: "content-type" }],
      });
    }
  });

  it("routes a path with a trailing slash like the path itself", async () => {
    const res = await app.request(
      "/v1/quotes/",
      { method: "POST", headers: { "content-type": "application/json" }, body: "{}" },
      env,
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_request" });
    expect((await app.request("/v1/config/", {}, env)).status).toBe(200);
  });
});
