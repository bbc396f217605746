import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import type { ResolverRecord } from "../../src/nodes/directory";
import { authenticate, connect, EVM, eventually, heartbeat, nodeAccount } from "../support/ws-client";

const app = createApp();
const TOKEN = "test-admin-token";
const call = (path: string, method = "GET", body?: unknown, token: string | null = TOKEN) =>
  app.request(
    path,
    {
      method,
      headers: {
        "content-type": "application/json",
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    },
    env,
  );
const directory = async (query = "") =>
  (await (await call(`/v1/resolvers${query}`)).json()) as { resolvers: ResolverRecord[]; inactive: number };

describe("GET /v1/resolvers", () => {
  it("lists a connected node with every field, online from its heartbeat", async () => {
    const account = nodeAccount(0);
    const socket = await connect();
    await authenticate(socket, account, { name: "alpha", region: "lagos" });
    await socket.next("welcome");
    socket.send(heartbeat());
    const entry = await eventually(async () => {
      const r = (await directory()).resolvers.find((x) => x.address === account.address);
      expect(r?.online).toBe(true);
      return r as ResolverRecord;
    });
    expect(entry).toStrictEqual({
      address: account.address,
      name: "alpha",
      region: "lagos",
      signerType: "keyfile",
      version: "1.0.0",
      registered: false,
      registeredAt: null,
      reliability: null,
      reliabilityDetail: null,
      badges: [],
      demoted: false,
      demotedUntil: null,
      demotionReason: null,
      online: true,
      state: "quoting",
      degraded: null,
      firstSeen: expect.stringMatching(/Z$/),
      lastSeen: expect.stringMatching(/Z$/),
      corridors: [{ chainId: EVM.chainId, baseToken: EVM.usdc, quoteToken: EVM.cngn }],
    });
    expect(Date.parse(entry.lastSeen as string)).toBeGreaterThanOrEqual(Date.parse(entry.firstSeen as string));
    socket.close();
    await eventually(async () =>
      expect((await directory()).resolvers.find((x) => x.address === account.address)?.online).toBe(false),
    );
  });

  it("hides resolvers offline for more than a day unless include=inactive", async () => {
    const stale = "0x00000000000000000000000000000000000000a1";
    const old = new Date(Date.now() - 2 * 86_400_000).toISOString();
    await env.DB.prepare(
      "INSERT INTO resolvers (address, name, registered, first_seen, last_seen, updated_at) VALUES (?, 'gone', 0, ?, ?, ?)",
    )
      .bind(stale, old, old, old)
      .run();
    const hidden = await directory();
    expect(hidden.resolvers.map((r) => r.address.toLowerCase())).not.toContain(stale);
    expect(hidden.inactive).toBeGreaterThanOrEqual(1);
    const all = await directory("?include=inactive");
    expect(all.resolvers.map((r) => r.address.toLowerCase())).toContain(stale);
    expect(all.inactive).toBe(0);
  });

  it("refuses an unknown include value", async () => {
    expect((await call("/v1/resolvers?include=everything")).status).toBe(400);
  });
});

describe("admin API", () => {
  const address = nodeAccount(3).address;

  it.each([
    ["PUT", `/v1/admin/resolvers/${address}`, { name: "x" }],
    ["POST", `/v1/admin/resolvers/${address}/demote`, { reason: "x" }],
    ["POST", `/v1/admin/resolvers/${address}/reinstate`, undefined],
  ])("%s %s answers 401 without the token or with a wrong one", async (method, path, body) => {
    for (const token of [null, "wrong-token"]) {
      const res = await call(path, method, body, token);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: "unauthorized" });
    }
  });

  it("registers, updates, demotes and reinstates a resolver", async () => {
    const put = await call(`/v1/admin/resolvers/${address}`, "PUT", { name: "delta", region: "accra" });
    expect(put.status).toBe(200);
    const registered = (await put.json()) as ResolverRecord;
    expect(registered).toMatchObject({ address, name: "delta", region: "accra", registered: true, demoted: false });
    expect(registered.registeredAt).toMatch(/Z$/);

    const renamed = (await (
      await call(`/v1/admin/resolvers/${address}`, "PUT", { name: "delta-2" })
    ).json()) as ResolverRecord;
    expect(renamed).toMatchObject({ name: "delta-2", region: "accra", registeredAt: registered.registeredAt });

    const demote = await call(`/v1/admin/resolvers/${address}/demote`, "POST", { minutes: 30, reason: "missed fills" });
    const demoted = (await demote.json()) as ResolverRecord;
    expect(demoted).toMatchObject({ demoted: true, demotionReason: "missed fills" });
    const minutes = (Date.parse(demoted.demotedUntil as string) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(29);
    expect(minutes).toBeLessThanOrEqual(30);
    const listed = (await directory("?include=inactive")).resolvers.find((r) => r.address === address);
    expect(listed).toMatchObject({ demoted: true, demotionReason: "missed fills" });

    const back = (await (await call(`/v1/admin/resolvers/${address}/reinstate`, "POST")).json()) as ResolverRecord;
    expect(back).toMatchObject({ demoted: false, demotedUntil: null, demotionReason: null });
  });

  it("answers 404 for demoting an unknown resolver and 400 for a bad address or body", async () => {
    const unknown = `0x${"77".repeat(20)}`;
    expect((await call(`/v1/admin/resolvers/${unknown}/demote`, "POST", { reason: "x" })).status).toBe(404);
    expect((await call("/v1/admin/resolvers/0x123", "PUT", { name: "x" })).status).toBe(400);
    expect((await call(`/v1/admin/resolvers/${address}`, "PUT", { name: "" })).status).toBe(400);
    expect((await call(`/v1/admin/resolvers/${address}`, "PUT", { surprise: true })).status).toBe(400);
  });
});
