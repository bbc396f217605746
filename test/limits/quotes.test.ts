import { env } from "cloudflare:test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { localConfig } from "../../src/config/local";
import { primaryEvmChain } from "../../src/config/record";

const app = createApp();
const [cngn, usdc] = primaryEvmChain(localConfig).tokens.map((t) => t.address);
const TAKER = "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc";

const quoteFrom = (ip: string, body: Record<string, unknown>) =>
  app.request(
    "/v1/quotes",
    {
      method: "POST",
      headers: { "content-type": "application/json", "CF-Connecting-IP": ip },
      body: JSON.stringify({ sellToken: cngn, buyToken: usdc, sellAmount: "1580000000", taker: TAKER, ...body }),
    },
    env,
  );

/**
 * `count` quote requests at once, each from `ipOf(i)` for a random taker (as a flood would name them);
 * how many were answered (404 no_quote: no node is connected here), the 429s, and the tokens the
 * client's bucket may have earned back while they ran (one every 1/quotesPerSecond s).
 */
async function quoteFlood(count: number, ipOf: (i: number) => string) {
  const started = Date.now();
  const answers = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      quoteFrom(ipOf(i), { taker: privateKeyToAccount(generatePrivateKey()).address }),
    ),
  );
  const earned = Math.ceil(((Date.now() - started) / 1000) * localConfig.limits.quotesPerSecond);
  const answered = answers.filter((r) => r.status === 404).length;
  const refused = answers.filter((r) => r.status === 429);
  expect(answered + refused.length).toBe(count);
  return { answered, refused, earned };
}

describe("a client's quote requests are counted by the corridor that runs them", () => {
  it("answers 429 rate_limited past the client's burst, with Retry-After, while another address is served", async () => {
    const { quoteBurst } = localConfig.limits;
    // The client is counted, whatever taker it names.
    const flood = await quoteFlood(quoteBurst + 5, () => "198.51.100.7");
    expect(flood.answered).toBeGreaterThanOrEqual(quoteBurst);
    expect(flood.answered).toBeLessThanOrEqual(quoteBurst + flood.earned);
    const refused = flood.refused[0];
    if (!refused) throw new Error(`no quote refused; ${flood.answered} answered`);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toMatchObject({ error: "rate_limited" });
    // Another address, and the same /64 of IPv6 counted as one client.
    expect((await quoteFrom("198.51.100.8", {})).status).toBe(404);
    const v6 = await quoteFlood(quoteBurst + 5, (i) => `2001:db8:7:7::${i.toString(16)}`);
    expect(v6.answered).toBeLessThanOrEqual(quoteBurst + v6.earned);
    expect(v6.refused.length).toBeGreaterThan(0);
    expect((await quoteFrom("2001:db8:7:8::1", {})).status).toBe(404);
  });
});

const pricesFrom = (ip: string) =>
  app.request(`/v1/prices?sellToken=${cngn}&buyToken=${usdc}`, { headers: { "CF-Connecting-IP": ip } }, env);

describe("a client's price requests are counted by the corridor that answers them", () => {
  it("answers 429 rate_limited past the client's burst, with Retry-After, while another address is answered", async () => {
    const { priceBurst, pricesPerSecond } = localConfig.limits;
    // Ten more than the burst at once: the bucket earns a token back every 1/pricesPerSecond s, so on a
    // busy machine a few more than the burst may be answered, never more than the time taken allows.
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: priceBurst + 10 }, () => pricesFrom("198.51.100.9")));
    const earned = Math.ceil(((Date.now() - started) / 1000) * pricesPerSecond);
    // No node streams a ladder here: each counted request is answered 404 no_prices.
    const answered = answers.filter((r) => r.status === 404).length;
    const refused = answers.filter((r) => r.status === 429);
    expect(answered + refused.length).toBe(priceBurst + 10);
    expect(answered).toBeGreaterThanOrEqual(priceBurst);
    expect(answered).toBeLessThanOrEqual(priceBurst + earned);
    const first = refused[0];
    if (!first) throw new Error(`no request refused; ${answered} answered in ${Date.now() - started} ms`);
    expect(Number(first.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await first.json()).toMatchObject({ error: "rate_limited" });
    expect((await pricesFrom("198.51.100.10")).status).toBe(404);
  });
});
