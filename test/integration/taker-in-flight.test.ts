import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { loadConfig } from "../../src/config/load";
import { localConfig } from "../../src/config/local";
import { primaryEvmChain } from "../../src/config/record";
import { takerStub } from "../../src/stubs";

const app = createApp();
const [cngn, usdc] = primaryEvmChain(localConfig).tokens.map((t) => t.address);
const TAKER = "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720";

const quote = (taker: string) =>
  app.request(
    "/v1/quotes",
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ sellToken: cngn, buyToken: usdc, sellAmount: "1580000000", taker }),
    },
    env,
  );

describe("maxOutstandingRfqs counts a taker's requests across every corridor", () => {
  it("refuses a request while the taker holds every place elsewhere, whatever the case of its address", async () => {
    const places = takerStub(env, TAKER.toLowerCase());
    for (const lease of ["elsewhere-1", "elsewhere-2", "elsewhere-3"]) {
      expect(await places.acquire(lease, 60_000, localConfig.maxOutstandingRfqs)).toEqual({ ok: true });
    }
    const refused = await quote(TAKER);
    const retryAfter = Math.ceil(loadConfig(env.RELAY_CONFIG).rfqWindowMs / 1000);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe(String(retryAfter));
    expect(await refused.json()).toMatchObject({ error: "too_many_rfqs", retryAfter });

    await places.release("elsewhere-1");
    // A place again: the request runs its auction (no resolver here, so no offers) and gives it back.
    expect((await quote(TAKER)).status).toBe(404);
    expect(await places.acquire("elsewhere-4", 60_000, localConfig.maxOutstandingRfqs)).toEqual({ ok: true });
  });
});
