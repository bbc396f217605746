import { env } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { readResolver, upsertRegistration } from "../../src/db/resolvers";
import { strike } from "../../src/resolvers/strikes";
import type { Quote } from "../../src/schemas/quote";
import type { Node, ResolverStanding } from "../../src/schemas/resolvers";
import { type Bidder, bidder, marketSellAmount, quoteBody } from "../support/bidder";
import { eventually, getJson, nodeAccount } from "../support/ws-client";

/**
 * Who gets a row of the resolver directory (docs/reliability.md, "The directory"): a node that is
 * registered or whose claims the chain covered, never a key that merely connects. The integration
 * relay's chain RPC is unreachable, so no read ever covers a node here (as during an RPC outage); a node
 * the chain covers is in test/settlement/dishonest-resolvers.test.ts.
 */

const app = createApp();
let sellAmount = "";
beforeAll(async () => {
  sellAmount = await marketSellAmount((path) => app.request(path, {}, env));
});

let open: Bidder[] = [];
afterEach(async () => {
  for (const b of open) b.socket.close();
  await Promise.all(open.map((b) => b.socket.closed));
  open = [];
});

const rowsOf = async (address: string) => {
  const key = address.toLowerCase();
  const [resolvers, days] = await env.DB.batch<{ n: number }>([
    env.DB.prepare("SELECT COUNT(*) AS n FROM resolvers WHERE address = ?").bind(key),
    env.DB.prepare("SELECT COUNT(*) AS n FROM resolver_days WHERE address = ? AND connected_ms > 0").bind(key),
  ]);
  return { resolvers: resolvers?.results[0]?.n, uptimeDays: days?.results[0]?.n };
};

describe("the resolver directory's rows", () => {
  it("are not made for a node that connects and heartbeats claims the chain never covered; it still quotes", async () => {
    const registered = nodeAccount(1).address;
    await upsertRegistration(env.DB, registered, {}, new Date().toISOString());
    const stranger = await bidder(0, "stranger");
    const known = await bidder(1, "known");
    open = [stranger, known];
    await eventually(async () => {
      const { nodes } = (await getJson<{ nodes: Node[] }>("/v1/nodes")).body;
      expect(nodes.filter((n) => n.fresh).map((n) => n.name)).toEqual(["known", "stranger"]);
    });

    // A node with no row is asked and wins as any other: its auction's counters are kept.
    const pending = app.request(
      "/v1/quotes",
      {
        method: "POST",
        body: JSON.stringify(quoteBody({ sellAmount })),
        headers: { "content-type": "application/json" },
      },
      env,
    );
    const [rs, rk] = await Promise.all([stranger.nextRfq(), known.nextRfq()]);
    await stranger.bid(rs, 1_000_000n);
    await known.bid(rk, 990_000n);
    const res = await pending;
    expect(res.status).toBe(200);
    expect(((await res.json()) as Quote).resolver?.address).toBe(stranger.account.address);

    for (const b of open) b.socket.close();
    await Promise.all(open.map((b) => b.socket.closed));
    open = [];
    // The registered node's entry is refreshed at auth and its uptime counted when its socket closes.
    await eventually(async () => expect(await rowsOf(registered)).toEqual({ resolvers: 1, uptimeDays: 1 }));
    expect(await readResolver(env.DB, registered)).toMatchObject({
      name: "",
      version: "1.0.0",
      corridors: [expect.objectContaining({ chainId: 31337 })],
      lastSeen: expect.stringMatching(/Z$/),
    });
    // The stranger left nothing of its own: no directory entry, no uptime.
    expect(await rowsOf(stranger.account.address)).toEqual({ resolvers: 0, uptimeDays: 0 });
    const { body } = await getJson<{ resolvers: { address: string }[] }>("/v1/resolvers?include=inactive");
    expect(body.resolvers.map((r) => r.address)).toEqual([registered]);
  });

  it("are made by an admin's demotion of a connected node that has none; an address neither knows is 404", async () => {
    const node = await bidder(3, "unlisted");
    open = [node];
    const address = node.account.address;
    await eventually(async () => {
      const { nodes } = (await getJson<{ nodes: Node[] }>("/v1/nodes")).body;
      expect(nodes.find((n) => n.address === address)?.fresh).toBe(true);
    });
    expect(await readResolver(env.DB, address)).toBeNull();
    const demote = (who: string) =>
      app.request(
        `/v1/admin/resolvers/${who}/demote`,
        {
          method: "POST",
          body: JSON.stringify({ minutes: 5, reason: "missed fills" }),
          headers: { "content-type": "application/json", authorization: "Bearer test-admin-token" },
        },
        env,
      );
    const res = await demote(address);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ address, demoted: true, demotionReason: "missed fills" });
    expect(await readResolver(env.DB, address)).toMatchObject({ demotionReason: "missed fills", demotions: 1 });
    expect((await demote(`0x${"71".repeat(20)}`)).status).toBe(404);
  });

  it("are made by a strike on a node that has none, so its strike and demotion are kept", async () => {
    const struck = nodeAccount(2).address;
    expect(await readResolver(env.DB, struck)).toBeNull();
    const now = Date.now();
    const demotion = await strike(
      env.DB,
      { resolver: struck, event: "rfq_forged", quoteId: null, why: "a forged signature", now },
      () => {},
    );
    expect(demotion?.demotedUntil).toBe(new Date(now + 15 * 60_000).toISOString());
    expect(await readResolver(env.DB, struck)).toMatchObject({ name: "", registered: false, demotions: 1 });
    const { status, body } = await getJson<ResolverStanding>(`/v1/resolvers/${struck}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ demoted: true, strikes: [{ event: "rfq_forged", reason: "a forged signature" }] });
  });
});
