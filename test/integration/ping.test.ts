import { describe, expect, it } from "vitest";
import { authenticate, connect, nodeAccount } from "../support/ws-client";

/**
 * Keep-alive on a resolver socket (docs/resolver-protocol.md, "Keep-alive"): `{"type":"ping"}` is answered
 * `{"type":"pong"}`, in the runtime's exact bytes without waking the corridor, and in any other spelling of
 * the same JSON by the corridor itself; the socket stays open either way, before auth and after.
 */
const PINGS = ['{"type":"ping"}', '{"type": "ping"}', '{ "type" : "ping" }\n'];

describe("ping and pong", () => {
  it("answers every spelling of a ping before auth with a pong, and the socket stays open", async () => {
    const socket = await connect();
    await socket.next("challenge");
    for (const ping of PINGS) {
      socket.send(ping);
      expect(await socket.next("pong")).toEqual({ type: "pong" });
    }
    socket.close();
    expect(await socket.closed).toEqual({ code: 1000, reason: "bye" });
  });

  it("answers every spelling of a ping after auth, and the node stays connected", async () => {
    const socket = await connect();
    await authenticate(socket, nodeAccount(3));
    await socket.next("welcome");
    for (const ping of PINGS) {
      socket.send(ping);
      expect(await socket.next("pong")).toEqual({ type: "pong" });
    }
    socket.close();
    expect(await socket.closed).toEqual({ code: 1000, reason: "bye" });
  });
});
