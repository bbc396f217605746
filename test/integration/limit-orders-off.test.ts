import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";

const app = createApp();

describe("limit orders while the configuration has them off", () => {
  it("publishes limitOrders as null in the default configuration", async () => {
    const config = (await (await app.request("/v1/config", {}, env)).json()) as { limitOrders: unknown };
    expect(config.limitOrders).toBeNull();
  });

  it.each([
    ["POST", "/v1/limit-orders/prepare"],
    ["POST", "/v1/limit-orders"],
    ["GET", "/v1/limit-orders?taker=0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc"],
    ["GET", "/v1/limit-orders/lo_0123456789abcdef0123456789abcdef"],
    ["POST", "/v1/limit-orders/lo_0123456789abcdef0123456789abcdef/cancel"],
  ])("answers %s %s with 404 limit_orders_disabled", async (method, path) => {
    const res = await app.request(
      path,
      { method, headers: { "content-type": "application/json" }, body: method === "POST" ? "{}" : undefined },
      env,
    );
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: "limit_orders_disabled", message: expect.any(String) });
  });
});
