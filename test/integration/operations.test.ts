import { env, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CorridorDO } from "../../durable-objects/corridor";
import { createApp } from "../../src/app";
import { allCorridors } from "../../src/chains/corridor-keys";
import { loadConfig } from "../../src/config/load";
import { corridorStub } from "../../src/objects";
import type { CorridorRecord, Health, KeeperRecord } from "../../src/schemas/ops";
import { quoteBody } from "../support/bidder";
import { seedQuote } from "../support/records";

/**
 * docs/operations.md: the health check, pausing a corridor and the keeper, and the request id in the
 * objects' log lines. This project leaves every chain's RPC unreachable and the keeper without a key.
 */
const app = createApp();
const config = loadConfig(env.RELAY_CONFIG);
const ADMIN = { authorization: "Bearer test-admin-token" };
const evmCorridor = allCorridors(config).find((c) => c.chain.kind === "evm");
if (!evmCorridor) throw new Error("no EVM corridor in the test configuration");

async function call(method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  const init = { method, headers, ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}) };
  const res = await app.request(path, init, env);
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

/** The configuration with the EVM chain's RPC at the run's closed port (test/support/closed-port.global.ts). */
const closedRpcEnv = () => ({
  ...env,
  RELAY_CONFIG: JSON.stringify({
    ...config,
    chains: config.chains.map((c) => (c.kind === "evm" ? { ...c, rpcUrl: env.TEST_CLOSED_RPC_URL } : c)),
  }),
});

afterEach(async () => {
  vi.restoreAllMocks();
  await call("POST", `/v1/admin/corridors/${evmCorridor.key}/resume`, { headers: ADMIN });
  await call("POST", "/v1/admin/keeper/resume", { headers: ADMIN });
});

describe("GET /v1/health", () => {
  it("answers 200 with every part, the chain whose RPC is down degraded and named, within its bound", async () => {
    const started = Date.now();
    const res = await app.request("/v1/health", {}, closedRpcEnv());
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const health = (await res.json()) as Health;
    expect(health.status).toBe("degraded");
    const evm = health.chains.find((c) => c.chainId === evmCorridor.chain.chainId);
    expect(evm).toMatchObject({ status: "degraded", reachable: false, head: null, error: expect.any(String) });
    expect(health.degraded).toContain(`chain:${evmCorridor.chain.chainId}`);
    expect(health.chains.map((c) => c.chainId)).toEqual(config.chains.map((c) => c.chainId));
    // The keeper answers; with no key it cannot settle anywhere, which is degraded too.
    expect(health.keeper).toMatchObject({ reachable: true, paused: null, followed: 0, status: "degraded" });
    expect(health.keeper.wallets).toEqual(
      config.chains.map((c) => ({ chainId: c.chainId, wallets: 0, addresses: [] })),
    );
    // Nothing settled yet: empty books; no wallet, so no balance to read; the closed RPC gives no bps.
    expect(evm).toMatchObject({
      books: { fills: 0, spent: "0", charged: "0", margin: "0", unpriced: 0, capped: false },
      keeper: { balance: null, fillsLeft: null, floorFills: config.keeperFloorFills },
      protocolFee: { bps: evmCorridor.chain.fee.bps, onChain: null },
    });
    expect(health.corridors.map((c) => c.key)).toEqual(allCorridors(config).map((c) => c.key));
    expect(health.corridors[0]).toMatchObject({ state: "degraded", degraded: "no_nodes", nodes: 0 });
    expect(health.corridors[0]?.outbox).toEqual({ queued: 0, oldestAgeSeconds: null });
    expect(health.outbox).toEqual({ status: "ok", queued: 0, oldestAgeSeconds: null });
    expect(health.limitOrders).toMatchObject({ status: "ok", open: 0, error: null });
    expect(health.oracle).toMatchObject({ status: "ok", active: false });
    expect(health.paused).toEqual([]);
  });

  it("is in the OpenAPI document", async () => {
    const doc = await call("GET", "/v1/openapi.json");
    const paths = Object.keys(doc.body.paths as object);
    expect(paths).toEqual(
      expect.arrayContaining([
        "/v1/health",
        "/v1/corridors",
        "/v1/admin/corridors/{key}/pause",
        "/v1/admin/corridors/{key}/resume",
        "/v1/admin/keeper/pause",
        "/v1/admin/keeper/resume",
        "/v1/admin/keeper",
      ]),
    );
  });
});

describe("pausing a corridor", () => {
  const pausePath = `/v1/admin/corridors/${evmCorridor.key}/pause`;

  it("needs the admin token", async () => {
    expect((await call("POST", pausePath)).status).toBe(401);
    expect((await call("POST", "/v1/admin/keeper/pause")).status).toBe(401);
  });

  it("answers 404 not_found for a corridor the relay does not serve", async () => {
    const res = await call("POST", "/v1/admin/corridors/31337:0x01:0x02/pause", { headers: ADMIN });
    expect(res).toMatchObject({ status: 404, body: { error: "not_found" } });
  });

  it("refuses new quotes with 503 not_leader corridor_paused, lists it paused, keeps it in storage, and resume undoes it", async () => {
    const paused = await call("POST", pausePath, { headers: ADMIN, body: { reason: "maintenance" } });
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ key: evmCorridor.key, state: "paused", paused: { reason: "maintenance" } });

    const listed = (await call("GET", "/v1/corridors")).body.corridors as CorridorRecord[];
    expect(listed.find((c) => c.key === evmCorridor.key)).toMatchObject({ state: "paused", degraded: null });
    expect(listed.filter((c) => c.key !== evmCorridor.key).every((c) => c.state !== "paused")).toBe(true);

    const quote = await call("POST", "/v1/quotes", { body: quoteBody() });
    expect(quote.status).toBe(503);
    expect(quote.body).toMatchObject({ error: "not_leader", reason: "corridor_paused", retryAfter: 2 });
    expect(quote.body.message).toContain("maintenance");
    expect(quote.headers.get("retry-after")).toBe("2");

    const health = (await call("GET", "/v1/health")).body as Health;
    expect(health.paused).toEqual([`corridor:${evmCorridor.key}`]);
    expect(health.degraded).not.toContain(`corridor:${evmCorridor.key}`);

    const stored = await runInDurableObject(corridorStub(env, evmCorridor.key), (_: CorridorDO, state) =>
      state.storage.kv.get("paused"),
    );
    expect(stored).toMatchObject({ reason: "maintenance" });

    const resumed = await call("POST", `/v1/admin/corridors/${evmCorridor.key}/resume`, { headers: ADMIN });
    expect(resumed.body).toMatchObject({ state: "degraded", degraded: "no_nodes", paused: null });
    // Asked again, the auction runs: no resolver is connected here, so no offer.
    expect((await call("POST", "/v1/quotes", { body: quoteBody() })).body).toMatchObject({ error: "no_offers" });
  });

  it("takes the key in either token order and case, and a pause without a body", async () => {
    const [chainId, a, b] = evmCorridor.key.split(":");
    const res = await call(
      "POST",
      `/v1/admin/corridors/${chainId}:${b?.toUpperCase().replace("0X", "0x")}:${a}/pause`,
      {
        headers: ADMIN,
      },
    );
    expect(res).toMatchObject({ status: 200, body: { key: evmCorridor.key, paused: { reason: null } } });
  });

  it("logs one line for the refused quote request, with the request's id and the corridor's refusal", async () => {
    await call("POST", pausePath, { headers: ADMIN });
    const lines: { requestId?: string }[] = [];
    vi.spyOn(console, "log").mockImplementation((line) => lines.push(line));
    await call("POST", "/v1/quotes", { body: quoteBody(), headers: { "x-request-id": "req-ops-quote" } });
    expect(lines.filter((l) => l.requestId === "req-ops-quote")).toEqual([
      expect.objectContaining({
        event: "request",
        path: "/v1/quotes",
        status: 503,
        corridor: evmCorridor.key,
        refused: "not_leader",
      }),
    ]);
  });
});

describe("a corridor whose fills fail for the relay's own reason", () => {
  it("shows degraded with the reason, named by the health check, until a fill settles or an operator resumes it", async () => {
    const stub = corridorStub(env, evmCorridor.key);
    const resolver = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
    const state = async () =>
      ((await call("GET", "/v1/corridors")).body.corridors as CorridorRecord[]).find((c) => c.key === evmCorridor.key);
    await stub.quotesChanged([
      { quoteId: "q_fault", fill: { resolver, status: "failed", txHash: null, fault: "relay:fee_mismatch" } },
    ]);
    expect(await state()).toMatchObject({ state: "degraded", degraded: "relay:fee_mismatch" });
    const health = (await call("GET", "/v1/health")).body as Health;
    expect(health.degraded).toContain(`corridor:${evmCorridor.key}`);
    // A taker's or a resolver's failure says nothing about the relay: the fault stays until a fill settles.
    await stub.quotesChanged([{ quoteId: "q_other", fill: { resolver, status: "failed", txHash: null } }]);
    expect(await state()).toMatchObject({ degraded: "relay:fee_mismatch" });
    await stub.quotesChanged([{ quoteId: "q_good", fill: { resolver, status: "settled", txHash: "0xab" } }]);
    expect(await state()).toMatchObject({ degraded: "no_nodes" });

    await stub.quotesChanged([
      { quoteId: "q_fault2", fill: { resolver, status: "failed", txHash: null, fault: "relay:reverted" } },
    ]);
    await call("POST", `/v1/admin/corridors/${evmCorridor.key}/resume`, { headers: ADMIN });
    expect(await state()).toMatchObject({ degraded: "no_nodes" });
  });
});

describe("pausing the keeper", () => {
  it("answers submissions 503 not_leader keeper_paused until resumed, and says so in the keeper's record", async () => {
    const { quote } = await seedQuote(env.DB);
    const paused = await call("POST", "/v1/admin/keeper/pause", { headers: ADMIN, body: { reason: "key rotation" } });
    expect(paused.status).toBe(200);
    expect((paused.body as KeeperRecord).paused).toMatchObject({ reason: "key rotation" });
    expect((await call("GET", "/v1/admin/keeper", { headers: ADMIN })).body).toMatchObject({
      paused: { reason: "key rotation" },
      followed: 0,
    });

    const lines: unknown[] = [];
    vi.spyOn(console, "log").mockImplementation((line) => lines.push(line));
    const body = { quoteId: quote.quoteId, signature: `0x${"11".repeat(65)}` };
    const refused = await call("POST", "/v1/executions", { body, headers: { "x-request-id": "req-ops-submit" } });
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ error: "not_leader", reason: "keeper_paused", retryAfter: 2 });
    expect(refused.body.message).toContain("paused");
    // The keeper's answer is on the request's one line, written once the answer has left.
    await vi.waitFor(() =>
      expect(lines).toContainEqual(
        expect.objectContaining({
          event: "request",
          requestId: "req-ops-submit",
          status: 503,
          quoteId: quote.quoteId,
          refused: "not_leader",
          reason: "keeper_paused",
        }),
      ),
    );
    expect(lines).not.toContainEqual(expect.objectContaining({ event: "submission" }));
    expect(((await call("GET", "/v1/health")).body as Health).paused).toContain("keeper");

    const resumed = await call("POST", "/v1/admin/keeper/resume", { headers: ADMIN });
    expect((resumed.body as KeeperRecord).paused).toBeNull();
    // Resumed, the keeper takes it again; with no key in this project it is not_leader for that reason.
    expect((await call("POST", "/v1/executions", { body })).body).toMatchObject({
      error: "not_leader",
      reason: "keeper_not_configured",
    });
  });
});
