import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { backoffDelay, Reconnect } from "../../src/clients/resolver/reconnect";
import { CorridorSocket, nativeSocket } from "../../src/clients/resolver/socket";

describe("a corridor's reconnect schedule", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const backoff = { initialMs: 100, maxMs: 1_000 };
  const random = () => 0.5;

  it("reconnects after each delay of the backoff, counting attempts until the relay welcomes the node", () => {
    const reconnect = new Reconnect(random, backoff);
    const connect = vi.fn();
    expect(reconnect.schedule(connect)).toEqual({ attempt: 1, delayMs: backoffDelay(0, random, backoff) });
    vi.advanceTimersByTime(backoffDelay(0, random, backoff) - 1);
    expect(connect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(connect).toHaveBeenCalledOnce();
    expect(reconnect.schedule(connect)).toEqual({ attempt: 2, delayMs: backoffDelay(1, random, backoff) });
    expect(reconnect.attempts).toBe(2);
    reconnect.reset();
    expect(reconnect.attempts).toBe(0);
    expect(reconnect.schedule(connect)).toEqual({ attempt: 1, delayMs: backoffDelay(0, random, backoff) });
  });

  it("does not reconnect once cancelled", () => {
    const reconnect = new Reconnect(random, backoff);
    const connect = vi.fn();
    reconnect.schedule(connect);
    reconnect.cancel();
    vi.advanceTimersByTime(backoff.maxMs);
    expect(connect).not.toHaveBeenCalled();
  });
});

describe("a corridor's socket over Node's own WebSocket", () => {
  let server: Server | null = null;
  /** The upgraded connections, which the server's own close does not end. */
  const upgraded: Duplex[] = [];
  afterEach(async () => {
    for (const socket of upgraded.splice(0)) socket.destroy();
    await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  });

  /**
   * A server on a port of its own, held from the start: it resets every connection, as a relay that is
   * down, until `up()`; then it answers the first `refusals` upgrades 503, as a restarting relay, and
   * accepts. (A port picked free and listened on later could be taken by another process meanwhile.)
   */
  async function relay(refusals: number): Promise<{ port: number; up(): void }> {
    let up = false;
    let refused = 0;
    const s = createServer((_, res) => res.writeHead(404).end());
    s.on("connection", (socket) => {
      if (!up) socket.resetAndDestroy();
    });
    s.on("upgrade", (req, socket) => {
      if (refused++ < refusals) {
        socket.end("HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\n\r\n");
        return;
      }
      const accept = createHash("sha1")
        .update(`${req.headers["sec-websocket-key"]}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
        .digest("base64");
      upgraded.push(socket);
      socket.write(
        `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
      );
    });
    await new Promise<void>((ok) => s.listen(0, "127.0.0.1", ok));
    server = s;
    return { port: (s.address() as AddressInfo).port, up: () => (up = true) };
  }

  it("reconnects after connections refused and answered 503, until the relay is back", async () => {
    const down = await relay(2);
    const port = down.port;
    const events: string[] = [];
    const socket = new CorridorSocket({
      corridor: "31337:a:b",
      url: `ws://127.0.0.1:${port}/v1/corridors/31337/a/b/connect`,
      factory: nativeSocket,
      random: () => 0,
      backoff: { initialMs: 40, maxMs: 80 },
      emit: (event) => events.push(event),
      onMessage: () => {},
      onClose: () => {},
    });
    socket.connect();
    const until = async (done: () => boolean) => {
      const deadline = Date.now() + 5_000;
      while (!done()) {
        if (Date.now() > deadline) throw new Error(`not yet: ${events.join(" ")}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    // The relay is down: each connection, reset, closes the socket and schedules the next.
    await until(() => events.filter((e) => e === "reconnect").length >= 2);
    expect(events.slice(0, 4)).toEqual(["connecting", "error", "close", "reconnect"]);
    down.up();
    await until(() => socket.isOpen);
    expect(events.filter((e) => e === "open")).toHaveLength(1);
    // Two upgrades answered 503, each closing its socket and scheduling the next.
    expect(events.filter((e) => e === "close").length).toBeGreaterThanOrEqual(4);
    const stopped = socket.stop();
    for (const s of upgraded) s.destroy();
    await stopped;
  });
});
