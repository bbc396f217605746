import { env } from "cloudflare:test";
import { createRoute, z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { createApp, MAX_BODY_BYTES } from "../../src/app";
import { loadConfig } from "../../src/config/load";
import { localConfig } from "../../src/config/local";
import { configRecord } from "../../src/config/record";

/** The real app plus two probe routes that exercise the shared validation and error handling. */
function appWithProbes() {
  const app = createApp();
  app.openapi(
    createRoute({
      method: "post",
      path: "/probe/echo",
      request: {
        body: {
          required: true,
          content: { "application/json": { schema: z.object({ amount: z.string().regex(/^\d+$/), n: z.number() }) } },
        },
      },
      responses: { 200: { description: "echo" } },
    }),
    (c) => c.json(c.req.valid("json"), 200),
  );
  app.get("/probe/crash", () => {
    throw new Error("secret internals");
  });
  return app;
}

const app = appWithProbes();
const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  app.request(path, { method: "POST", body, headers: { "content-type": "application/json", ...headers } }, env);

describe("GET /v1/config", () => {
  it("returns record 2.6 for the configuration in force", async () => {
    const res = await app.request("/v1/config", {}, env);
    expect(res.status).toBe(200);
    // The local configuration, with the auction window and limits the workers projects set (vitest.config.ts).
    const { rfqWindowMs, limits } = loadConfig(env.RELAY_CONFIG);
    expect(await res.json()).toStrictEqual(configRecord({ ...localConfig, rfqWindowMs, limits }));
  });

  it("fails with a message naming the bad field when the configuration is invalid", async () => {
    const bad = structuredClone(localConfig);
    (bad.chains[0] as { executor: string }).executor = "nope";
    const res = await app.request("/v1/config", {}, { ...env, RELAY_CONFIG: JSON.stringify(bad) });
    expect(res.status).toBe(500);
    const body = (await res.json()) as { error: string; message: string };
    expect(body.error).toBe("config_invalid");
    expect(body.message).toContain("chains.0.executor");
  });
});

describe("HTTP conventions", () => {
  it("answers an unknown path with 404 not_found", async () => {
    const res = await app.request("/v1/nothing-here", {}, env);
    expect(res.status).toBe(404);
    expect(await res.json()).toStrictEqual({ error: "not_found", message: "No route for GET /v1/nothing-here." });
  });

  it("answers a wrong method with 405 and Allow", async () => {
    const res = await post("/v1/config", "{}");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD");
    expect(await res.json()).toMatchObject({ error: "method_not_allowed" });
  });

  it("refuses a body over 64 KiB with 413", async () => {
    const res = await post("/probe/echo", JSON.stringify({ amount: "1", n: 1, pad: "x".repeat(MAX_BODY_BYTES) }));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: "payload_too_large" });
  });

  it("answers malformed JSON with 400 invalid_request", async () => {
    const res = await post("/probe/echo", "{not json");
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; issues: unknown[] };
    expect(body.error).toBe("invalid_request");
    expect(body.issues).toHaveLength(1);
  });

  it("answers a body that fails validation with the list of issues", async () => {
    const res = await post("/probe/echo", JSON.stringify({ amount: "1.5" }));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; issues: { path: string; message: string }[] };
    expect(body.error).toBe("invalid_request");
    expect(body.issues.map((i) => i.path).sort()).toEqual(["amount", "n"]);
  });

  it("answers a missing body with 400 invalid_request", async () => {
    const res = await app.request("/probe/echo", { method: "POST" }, env);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_request" });
  });

  it("passes a valid body through", async () => {
    const res = await post("/probe/echo", JSON.stringify({ amount: "15", n: 2 }));
    expect(res.status).toBe(200);
    expect(await res.json()).toStrictEqual({ amount: "15", n: 2 });
  });

  it("answers anything unexpected with 500 internal_error and no internals", async () => {
    const res = await app.request("/probe/crash", {}, env);
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toStrictEqual({ error: "internal_error", message: "Something went wrong on our side." });
    expect(text).not.toContain("secret");
    expect(text).not.toContain("at ");
  });

  it("gives every response an x-request-id, keeping the caller's", async () => {
    const fresh = await app.request("/v1/config", {}, env);
    expect(fresh.headers.get("x-request-id")).toMatch(/.{8,}/);
    const kept = await app.request("/nowhere", { headers: { "x-request-id": "abc-123" } }, env);
    expect(kept.headers.get("x-request-id")).toBe("abc-123");
  });

  it("allows cross-origin GET and JSON POST", async () => {
    const preflight = await app.request(
      "/v1/config",
      {
        method: "OPTIONS",
        headers: {
          origin: "https://wallet.example",
          "access-control-request-method": "POST",
          "access-control-request-headers": "content-type",
        },
      },
      env,
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");
    const res = await app.request("/v1/config", { headers: { origin: "https://wallet.example" } }, env);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("lets a browser send X-Request-Id and Last-Event-ID, and read Server-Timing", async () => {
    const preflight = await app.request(
      "/v1/quotes/q_1/events",
      {
        method: "OPTIONS",
        headers: {
          origin: "https://wallet.example",
          "access-control-request-method": "GET",
          "access-control-request-headers": "x-request-id, last-event-id",
        },
      },
      env,
    );
    const allowed = (preflight.headers.get("access-control-allow-headers") ?? "").toLowerCase();
    expect(allowed).toContain("x-request-id");
    expect(allowed).toContain("last-event-id");
    const res = await app.request("/v1/config", { headers: { origin: "https://wallet.example" } }, env);
    expect(res.headers.get("access-control-expose-headers")?.toLowerCase()).toContain("server-timing");
    expect(res.headers.get("timing-allow-origin")).toBe("*");
  });
});

describe("GET /v1/openapi.json", () => {
  it("is an OpenAPI 3 document listing every route of the app", async () => {
    const real = createApp();
    const res = await real.request("/v1/openapi.json", {}, env);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toMatch(/^3\.\d+\.\d+$/);
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ":$1")}`),
    );
    const routed = real.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${r.path}`);
    expect(documented.sort()).toEqual([...new Set(routed)].sort());
  });

  it("names its server, each operation, who may call it, and the headers and statuses every answer may have", async () => {
    const res = await createApp().request("https://relay.test:8443/v1/openapi.json", {}, env);
    const doc = (await res.json()) as {
      servers: { url: string }[];
      info: { license?: { name: string } };
      paths: Record<string, Record<string, Operation>>;
    };
    expect(doc.servers).toEqual([{ url: "https://relay.test:8443", description: "This relay" }]);
    expect(doc.info.license?.name).toBeTruthy();
    const ops = Object.entries(doc.paths).flatMap(([path, item]) => Object.values(item).map((op) => ({ path, op })));
    const ids = ops.map(({ op }) => op.operationId);
    expect(ids.every((id) => typeof id === "string" && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ops.length);
    for (const { path, op } of ops) {
      const security = path.startsWith("/v1/admin/")
        ? [{ bearerAuth: [] }]
        : READS_API_KEY.has(op.operationId ?? "")
          ? [{}, { apiKey: [] }]
          : [];
      expect(op.security, op.operationId).toEqual(security);
      if (READS_API_KEY.has(op.operationId ?? "")) expect(Object.keys(op.responses)).toContain("401");
      expect(op.parameters?.some((p) => p.in === "header" && p.name === "X-Request-Id")).toBe(true);
      expect(Object.keys(op.responses)).toContain("405");
      if (op.requestBody) expect(Object.keys(op.responses)).toContain("413");
      for (const [status, response] of Object.entries(op.responses)) {
        expect(response.headers).toHaveProperty("X-Request-Id");
        if (status === "429" || status === "503") expect(response.headers).toHaveProperty("Retry-After");
      }
    }
    const byId = new Map(ops.map(({ op }) => [op.operationId, op]));
    expect(byId.get("requestQuote")?.responses["200"]?.headers).toHaveProperty("Server-Timing");
    expect(Object.keys(byId.get("requestQuote")?.responses ?? {})).toContain("503");
    expect(byId.get("submitExecution")?.parameters?.map((p) => p.name.toLowerCase())).toContain("idempotency-key");
    expect(byId.get("streamQuoteEvents")?.parameters?.map((p) => p.name.toLowerCase())).toContain("last-event-id");
  });
});

/** The operations that read `X-Api-Key`: each counts its request against the key (docs/api.md, "Limits"). */
const READS_API_KEY = new Set([
  "requestQuote",
  "getPrices",
  "submitExecution",
  "prepareLimitOrder",
  "streamQuoteEvents",
  "streamLimitOrderEvents",
]);

describe("X-Api-Key", () => {
  const WRONG = { "X-Api-Key": "rk_not_a_key_this_relay_issued" };
  const EVM = localConfig.chains.find((c) => c.kind === "evm");
  const [usdc, cngn] = [EVM?.tokens[0]?.address ?? "", EVM?.tokens[1]?.address ?? ""];
  const taker = "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc";
  const id = "0".repeat(32);
  const json = (body: unknown) => JSON.stringify(body);
  const requests: Record<string, [string, string, string?]> = {
    requestQuote: ["POST", "/v1/quotes", json({ sellToken: cngn, buyToken: usdc, sellAmount: "1580000000", taker })],
    getPrices: ["GET", `/v1/prices?sellToken=${cngn}&buyToken=${usdc}&sellAmount=1580000000`],
    submitExecution: ["POST", "/v1/executions", json({ quoteId: `q_${id}`, signature: `0x${"11".repeat(65)}` })],
    prepareLimitOrder: [
      "POST",
      "/v1/limit-orders/prepare",
      json({ sellToken: cngn, buyToken: usdc, sellAmount: "1", limitAmount: "1", taker, expiresInSeconds: 86_400 }),
    ],
    streamQuoteEvents: ["GET", `/v1/quotes/q_${id}/events`],
    streamLimitOrderEvents: ["GET", `/v1/limit-orders/lo_${id}/events`],
  };

  it("is read by exactly the operations the OpenAPI document declares it on, each answering 401 to a wrong key", async () => {
    const doc = (await (await app.request("/v1/openapi.json", {}, env)).json()) as {
      paths: Record<string, Record<string, Operation>>;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: "apiKey", in: "header", name: "X-Api-Key" });
    const declared = Object.values(doc.paths).flatMap((item) =>
      Object.values(item).filter((op) => JSON.stringify(op.security).includes("apiKey")),
    );
    expect(new Set(declared.map((op) => op.operationId))).toEqual(READS_API_KEY);
    expect(new Set(Object.keys(requests))).toEqual(READS_API_KEY);
    for (const [operationId, [method, path, body]] of Object.entries(requests)) {
      const headers = { ...WRONG, ...(body ? { "content-type": "application/json" } : {}) };
      const res = await app.request(path, { method, headers, ...(body ? { body } : {}) }, env);
      expect([operationId, res.status]).toEqual([operationId, 401]);
      expect(await res.json()).toMatchObject({ error: "invalid_api_key" });
    }
  });
});

interface Operation {
  operationId?: string;
  security?: unknown[];
  parameters?: { name: string; in: string }[];
  requestBody?: unknown;
  responses: Record<string, { headers?: Record<string, unknown> }>;
}

describe("limit orders while the configuration has them off", () => {
  /** The configuration in force with limit orders off. */
  const off = { ...env, RELAY_CONFIG: JSON.stringify({ ...loadConfig(env.RELAY_CONFIG), limitOrders: null }) };

  it("publishes limitOrders as null", async () => {
    const config = (await (await app.request("/v1/config", {}, off)).json()) as { limitOrders: unknown };
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
      off,
    );
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: "limit_orders_disabled", message: expect.any(String) });
  });
});
