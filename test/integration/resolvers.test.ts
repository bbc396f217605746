import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { countStatement, type DayCounts, readTotals, type Totals } from "../../src/db/resolver-days";
import { windowStart } from "../../src/resolvers/reliability";
import { readStanding } from "../../src/resolvers/standing";
import type { Node, Resolver } from "../../src/schemas/resolvers";
import { authenticate, connect, EVM, eventually, getJson, heartbeat, nodeAccount } from "../support/ws-client";

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
  (await (await call(`/v1/resolvers${query}`)).json()) as { resolvers: Resolver[]; inactive: number };

describe("GET /v1/resolvers", () => {
  it("lists a connected node with every field, online from its heartbeat", async () => {
    const account = nodeAccount(0);
    // Registered without a name or region: the directory shows the node's own (a node that is neither
    // registered nor covered by the chain has no entry, test/integration/directory-rows.test.ts).
    await call(`/v1/admin/resolvers/${account.address}`, "PUT", {});
    const socket = await connect();
    await authenticate(socket, account, { name: "alpha", region: "lagos" });
    await socket.next("welcome");
    socket.send(heartbeat());
    const entry = await eventually(async () => {
      const r = (await directory()).resolvers.find((x) => x.address === account.address);
      expect(r?.online).toBe(true);
      return r as Resolver;
    });
    expect(entry).toStrictEqual({
      address: account.address,
      name: "alpha",
      region: "lagos",
      signerType: "keyfile",
      version: "1.0.0",
      registered: true,
      registeredAt: expect.stringMatching(/Z$/),
      reliability: null,
      reliabilityDetail: null,
      badges: ["new"],
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

describe("GET /v1/resolvers: reliability and badges", () => {
  const DAY = 86_400_000;
  const MINUTE = 60_000;
  const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString();
  /** A directory entry seen a minute ago, first seen `firstSeenDaysAgo` days ago, with its day counters. */
  async function seed(
    address: string,
    firstSeenDaysAgo: number,
    days: [daysAgo: number, counts: DayCounts][],
    solanaAddress: string | null = null,
  ) {
    const seen = new Date(Date.now() - MINUTE).toISOString();
    await env.DB.batch([
      env.DB.prepare(
        `INSERT INTO resolvers (address, name, registered, solana_address, first_seen, last_seen, updated_at)
         VALUES (?1, ?1, 0, ?2, ?3, ?4, ?4)`,
      ).bind(address, solanaAddress, daysAgo(firstSeenDaysAgo), seen),
      ...days.map(([n, counts]) => countStatement(env.DB, address, counts, daysAgo(n))),
    ]);
  }
  const entry = async (address: string) =>
    (await directory()).resolvers.find((r) => r.address.toLowerCase() === address) as Resolver;

  it("computes each rate over the last 7 days, their product and the badges", async () => {
    const address = "0x00000000000000000000000000000000000000b1";
    await seed(
      address,
      30,
      [
        [0, { asked: 20, answered: 19, replies: 19, fastReplies: 15, connectedMs: 60 * MINUTE, freshMs: 60 * MINUTE }],
        [3, { asked: 10, answered: 10, replies: 10, fastReplies: 2, won: 8, submitted: 8, settled: 8 }],
        [6, { asked: 10, answered: 9, replies: 9, fastReplies: 9, won: 12, submitted: 12, settled: 12 }],
        // Seven days ago: outside the window, or every rate would fall.
        [7, { asked: 1_000, replies: 1_000, submitted: 1_000, connectedMs: 1_000 * MINUTE }],
      ],
      "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV",
    );
    expect(await entry(address)).toMatchObject({
      reliability: 0.95,
      reliabilityDetail: {
        response: { rate: 38 / 40, samples: 40 },
        fill: { rate: 1, samples: 20 },
        uptime: { rate: 1, samples: 60 },
      },
      badges: ["fast", "reliable", "solana"],
    });
    // The admin API's record is the directory's.
    const put = (await (await call(`/v1/admin/resolvers/${address}`, "PUT", { name: "b1" })).json()) as Resolver;
    expect(put).toMatchObject({ reliability: 0.95, badges: ["fast", "reliable", "solana"] });
  });

  it("states no reliability while a measure has fewer than 20 samples, and shows the rates so far", async () => {
    const address = "0x00000000000000000000000000000000000000b2";
    await seed(address, 2, [
      [1, { asked: 30, answered: 30, replies: 30, fastReplies: 10, submitted: 19, settled: 19 }],
      [0, { connectedMs: 30 * MINUTE, freshMs: 27 * MINUTE }],
    ]);
    expect(await entry(address)).toMatchObject({
      reliability: null,
      reliabilityDetail: {
        response: { rate: 1, samples: 30 },
        fill: { rate: 1, samples: 19 },
        uptime: { rate: 0.9, samples: 30 },
      },
      badges: ["new"],
    });
  });

  it("gives auctions who is demoted and each reliability in one read", async () => {
    const reliable = "0x00000000000000000000000000000000000000b4";
    const demoted = "0x00000000000000000000000000000000000000b5";
    const full = {
      asked: 20,
      answered: 20,
      submitted: 20,
      settled: 19,
      failed: 1,
      connectedMs: 20 * MINUTE,
      freshMs: 20 * MINUTE,
    };
    await seed(reliable, 10, [[2, full]]);
    await seed(demoted, 10, [[8, full]]);
    await env.DB.prepare("UPDATE resolvers SET demoted_until = ?2 WHERE address = ?1")
      .bind(demoted, new Date(Date.now() + 60 * MINUTE).toISOString())
      .run();
    const standing = await readStanding(env.DB, Date.now());
    expect(standing.demoted.has(demoted)).toBe(true);
    expect(standing.demoted.has(reliable)).toBe(false);
    expect(standing.reliability.get(reliable)).toBe(0.95);
    expect(standing.reliability.has(demoted)).toBe(false);
  });

  it("counts a node socket's connected time, and the part of it after a heartbeat, when it closes", async () => {
    const account = nodeAccount(1);
    // Uptime is counted for a node in the directory: registered here.
    await call(`/v1/admin/resolvers/${account.address}`, "PUT", {});
    const socket = await connect();
    await authenticate(socket, account);
    await socket.next("welcome");
    await new Promise((resolve) => setTimeout(resolve, 20));
    socket.send(heartbeat());
    await eventually(async () => {
      const { nodes } = (await getJson<{ nodes: Node[] }>("/v1/nodes")).body;
      expect(nodes.find((n) => n.address === account.address)?.lastHeartbeat).not.toBeNull();
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    socket.close();
    const totals = await eventually(async () => {
      const t = (await readTotals(env.DB, windowStart(Date.now()), account.address)).get(account.address.toLowerCase());
      expect(t?.connectedMs).toBeGreaterThanOrEqual(40);
      return t as Totals;
    });
    expect(totals.freshMs).toBeGreaterThanOrEqual(20);
    expect(totals.freshMs).toBeLessThan(totals.connectedMs);
  });

  it("shows no detail for a resolver whose counters are all older than 7 days", async () => {
    const address = "0x00000000000000000000000000000000000000b3";
    await seed(address, 60, [[8, { asked: 50, answered: 50, submitted: 50, settled: 50, connectedMs: 50 * MINUTE }]]);
    expect(await entry(address)).toMatchObject({ reliability: null, reliabilityDetail: null, badges: [] });
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
    const registered = (await put.json()) as Resolver;
    expect(registered).toMatchObject({ address, name: "delta", region: "accra", registered: true, demoted: false });
    expect(registered.registeredAt).toMatch(/Z$/);

    const renamed = (await (
      await call(`/v1/admin/resolvers/${address}`, "PUT", { name: "delta-2" })
    ).json()) as Resolver;
    expect(renamed).toMatchObject({ name: "delta-2", region: "accra", registeredAt: registered.registeredAt });

    const demote = await call(`/v1/admin/resolvers/${address}/demote`, "POST", { minutes: 30, reason: "missed fills" });
    const demoted = (await demote.json()) as Resolver;
    expect(demoted).toMatchObject({ demoted: true, demotionReason: "missed fills" });
    const minutes = (Date.parse(demoted.demotedUntil as string) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(29);
    expect(minutes).toBeLessThanOrEqual(30);
    const listed = (await directory("?include=inactive")).resolvers.find((r) => r.address === address);
    expect(listed).toMatchObject({ demoted: true, demotionReason: "missed fills" });

    const back = (await (await call(`/v1/admin/resolvers/${address}/reinstate`, "POST")).json()) as Resolver;
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
