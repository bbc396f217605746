import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { localConfig } from "../../src/config/local";
import { primaryEvmChain } from "../../src/config/record";

const app = createApp();
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
