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

describe("a client's quote requests are counted by the corridor that runs them", () => {
  it("answers 429 rate_limited past the client's burst, with Retry-After, while another address is served", async () => {
    const { quoteBurst } = localConfig.limits;
    // Random takers, as a flood would use: the client is counted, whatever taker it names.
    const takers = Array.from({ length: quoteBurst + 1 }, () => privateKeyToAccount(generatePrivateKey()).address);
    const statuses: number[] = [];
    for (const taker of takers) statuses.push((await quoteFrom("198.51.100.7", { taker })).status);
    expect(statuses.slice(0, quoteBurst).every((s) => s === 404)).toBe(true);
    const refused = await quoteFrom("198.51.100.7", { taker: takers[0] });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toMatchObject({ error: "rate_limited" });
    // Another address, and the same /64 of IPv6 counted as one client.
    expect((await quoteFrom("198.51.100.8", {})).status).toBe(404);
    for (let i = 0; i < quoteBurst; i++) await quoteFrom(`2001:db8:7:7::${i.toString(16)}`, { taker: takers[i] });
    expect((await quoteFrom("2001:db8:7:7:ffff::1", {})).status).toBe(429);
    expect((await quoteFrom("2001:db8:7:8::1", {})).status).toBe(404);
  });
});

const pricesFrom = (ip: string) =>
  app.request(`/v1/prices?sellToken=${cngn}&buyToken=${usdc}`, { headers: { "CF-Connecting-IP": ip } }, env);

describe("a client's price requests are counted by the corridor that answers them", () => {
  it("answers 429 rate_limited past the client's burst, with Retry-After, while another address is answered", async () => {
    const { priceBurst } = localConfig.limits;
    const statuses: number[] = [];
    for (let i = 0; i < priceBurst; i++) statuses.push((await pricesFrom("198.51.100.9")).status);
    // No node streams a ladder here: each counted request is answered 404 no_prices.
    expect(statuses.every((s) => s === 404)).toBe(true);
    const refused = await pricesFrom("198.51.100.9");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toMatchObject({ error: "rate_limited" });
    expect((await pricesFrom("198.51.100.10")).status).toBe(404);
  });
});
