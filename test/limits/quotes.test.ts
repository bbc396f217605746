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
 * `count` requests at once (`send(i)`), past a client's burst of a limit earning `perSecond` back: how many
 * were answered (404 here: no node is connected, no ladder is streamed) and the 429s. Checks that no fewer
 * than `burst` were answered, nor more than the burst and the tokens earned while they ran, and that one
 * was refused with Retry-After and `rate_limited`.
 */
async function flood(
  count: number,
  limit: { burst: number; perSecond: number },
  send: (i: number) => Response | Promise<Response>,
) {
  const started = Date.now();
  const answers = await Promise.all(Array.from({ length: count }, (_, i) => send(i)));
  const earned = Math.ceil(((Date.now() - started) / 1000) * limit.perSecond);
  const answered = answers.filter((r) => r.status === 404).length;
  const refused = answers.filter((r) => r.status === 429);
  expect(answered + refused.length).toBe(count);
  expect(answered).toBeGreaterThanOrEqual(limit.burst);
  expect(answered).toBeLessThanOrEqual(limit.burst + earned);
  const first = refused[0];
  if (!first) throw new Error(`no request refused; ${answered} answered in ${Date.now() - started} ms`);
  expect(Number(first.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  expect(await first.json()).toMatchObject({ error: "rate_limited" });
}

const randomTaker = () => privateKeyToAccount(generatePrivateKey()).address;

describe("a client's quote requests are counted by the corridor that runs them", () => {
  it("answers 429 rate_limited past the client's burst, with Retry-After, while another address is served", async () => {
    const { quoteBurst: burst, quotesPerSecond: perSecond } = localConfig.limits;
    // The client is counted, whatever taker it names.
    await flood(burst + 5, { burst, perSecond }, () => quoteFrom("198.51.100.7", { taker: randomTaker() }));
    // Another address, and the same /64 of IPv6 counted as one client.
    expect((await quoteFrom("198.51.100.8", {})).status).toBe(404);
    await flood(burst + 5, { burst, perSecond }, (i) =>
      quoteFrom(`2001:db8:7:7::${i.toString(16)}`, { taker: randomTaker() }),
    );
    expect((await quoteFrom("2001:db8:7:8::1", {})).status).toBe(404);
  });
});

const pricesFrom = (ip: string) =>
  app.request(`/v1/prices?sellToken=${cngn}&buyToken=${usdc}`, { headers: { "CF-Connecting-IP": ip } }, env);

describe("a client's price requests are counted by the corridor that answers them", () => {
  it("answers 429 rate_limited past the client's burst, with Retry-After, while another address is answered", async () => {
    const { priceBurst: burst, pricesPerSecond: perSecond } = localConfig.limits;
    await flood(burst + 10, { burst, perSecond }, () => pricesFrom("198.51.100.9"));
    expect((await pricesFrom("198.51.100.10")).status).toBe(404);
  });
});
