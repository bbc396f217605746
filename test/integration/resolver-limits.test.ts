import { describe, expect, it } from "vitest";
import { MAX_FRAME_BYTES } from "../../src/protocol/frames";
import { authenticate, connect, heartbeat, nodeAccount } from "../support/ws-client";

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
