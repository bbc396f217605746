import { env } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { MAX_FRAME_BYTES } from "../../src/protocol/frame-limits";
import { type Bidder, bidder, quoteBody } from "../support/bidder";
import { authenticate, connect, eventually, heartbeat, nodeAccount } from "../support/ws-client";

describe("resolver frame limits", () => {
  it("closes with frame_too_large on a frame over 64 KiB", async () => {
    const socket = await connect();
    await authenticate(socket, nodeAccount(0));
    await socket.next("welcome");
    socket.send(JSON.stringify({ ...heartbeat(), padding: "x".repeat(MAX_FRAME_BYTES) }));
    expect(await socket.next("error")).toMatchObject({ code: "frame_too_large" });
    expect(await socket.closed).toEqual({ code: 1008, reason: "frame_too_large" });
  });

  it("closes with rate_limited when a node sends more than 50 frames a second", async () => {
    const socket = await connect();
    await authenticate(socket, nodeAccount(1));
    await socket.next("welcome");
    for (let i = 0; i < 60; i++) socket.send(heartbeat());
    expect(await socket.closed).toEqual({ code: 1008, reason: "rate_limited" });
  });

  it("keeps a node that stays under the rate", async () => {
    const socket = await connect();
    await authenticate(socket, nodeAccount(2));
    await socket.next("welcome");
    for (let i = 0; i < 20; i++) socket.send(heartbeat());
    socket.send({ type: "auth", address: nodeAccount(2).address, signature: "0x00", name: "x", version: "1" });
    expect(await socket.next("error")).toMatchObject({ code: "already_authenticated" });
    socket.close();
  });
});

const app = createApp();
const postQuote = async () => {
  const res = await app.request(
    "/v1/quotes",
    { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(quoteBody()) },
    env,
  );
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe("resolver frames under abuse", () => {
  let nodes: Bidder[] = [];
  afterEach(() => {
    for (const n of nodes) n.socket.close();
    nodes = [];
  });

  it("counts a frame's size in bytes, not characters", async () => {
    const socket = await connect();
    await authenticate(socket, nodeAccount(0));
    await socket.next("welcome");
    // Under 64 Ki characters, over 64 KiB: each "€" is three bytes in UTF-8.
    socket.send(JSON.stringify({ ...heartbeat(), padding: "€".repeat(MAX_FRAME_BYTES / 2) }));
    expect(await socket.next("error")).toMatchObject({ code: "frame_too_large" });
    expect(await socket.closed).toEqual({ code: 1008, reason: "frame_too_large" });
  });

  it("closes a node that floods duplicate bids, within a second", async () => {
    const node = await bidder(0, "flood");
    nodes.push(node);
    await eventually(async () => {
      const res = await app.request("/v1/nodes", {}, env);
      expect(((await res.json()) as { nodes: { fresh: boolean }[] }).nodes[0]?.fresh).toBe(true);
    });
    const pending = postQuote();
    const rfq = await node.nextRfq();
    const started = Date.now();
    for (let i = 0; i < 80; i++) await node.bid(rfq, 1_000_000n);
    expect(await node.socket.closed).toEqual({ code: 1008, reason: "rate_limited" });
    expect(Date.now() - started).toBeLessThan(1_000);
    await pending;
  });

  it("does not wait out the window for an asked node that disconnects: it counts as noReply", async () => {
    const [stays, leaves] = [await bidder(1, "stays"), await bidder(2, "leaves")];
    nodes.push(stays, leaves);
    await eventually(async () => {
      const res = await app.request("/v1/nodes", {}, env);
      const listed = ((await res.json()) as { nodes: { fresh: boolean }[] }).nodes;
      expect(listed.filter((n) => n.fresh)).toHaveLength(2);
    });
    const started = Date.now();
    const pending = postQuote();
    const [rfq] = await Promise.all([stays.nextRfq(), leaves.nextRfq()]);
    await stays.bid(rfq, 1_000_000n);
    leaves.socket.close();
    const { status, body } = await pending;
    expect(status).toBe(200);
    expect(body.replies).toMatchObject({ valid: 1, noReply: 1 });
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
