import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { backoffDelay, Reconnect } from "../../src/clients/resolver/reconnect";
import { CorridorSocket, nativeSocket } from "../../src/clients/resolver/socket";
import { FakeClock } from "../support/fake-clock";

describe("a corridor's reconnect schedule", () => {
  const backoff = { initialMs: 100, maxMs: 1_000 };
  const random = () => 0.5;

  it("reconnects after each delay of the backoff, counting attempts until the relay welcomes the node", async () => {
    const clock = new FakeClock();
    const reconnect = new Reconnect(random, backoff, clock);
    const connect = vi.fn();
    expect(reconnect.schedule(connect)).toEqual({ attempt: 1, delayMs: backoffDelay(0, random, backoff) });
    await clock.advance(backoffDelay(0, random, backoff) - 1);
    expect(connect).not.toHaveBeenCalled();
    await clock.advance(1);
    expect(connect).toHaveBeenCalledOnce();
    expect(reconnect.schedule(connect)).toEqual({ attempt: 2, delayMs: backoffDelay(1, random, backoff) });
    expect(reconnect.attempts).toBe(2);
    reconnect.reset();
    expect(reconnect.attempts).toBe(0);
    expect(reconnect.schedule(connect)).toEqual({ attempt: 1, delayMs: backoffDelay(0, random, backoff) });
  });

  it("does not reconnect once cancelled", async () => {
    const clock = new FakeClock();
    const reconnect = new Reconnect(random, backoff, clock);
    const connect = vi.fn();
    reconnect.schedule(connect);
    reconnect.cancel();
    await clock.advance(backoff.maxMs);
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
    const clock = new FakeClock();
    const events: string[] = [];
    /** The delay of the last reconnect scheduled, and who waits for which event. */
    let delayMs = 0;
    let waiting: { event: string; heard(): void } | null = null;
    const heard = (event: string) => new Promise<void>((resolve) => (waiting = { event, heard: resolve }));
    const socket = new CorridorSocket({
      corridor: "31337:a:b",
      url: `ws://127.0.0.1:${down.port}/v1/corridors/31337/a/b/connect`,
      factory: nativeSocket,
      random: () => 0,
      backoff: { initialMs: 40, maxMs: 80 },
      timer: clock,
      emit: (event, fields) => {
        events.push(event);
        if (event === "reconnect") delayMs = (fields as { delayMs: number }).delayMs;
        if (waiting?.event === event) waiting.heard();
      },
      onMessage: () => {},
      onClose: () => {},
    });
    /** Lets the scheduled reconnect run, and waits for what the relay's answer to it brings. */
    const reconnectUntil = async (event: string) => {
      const next = heard(event);
      await clock.advance(delayMs);
      await next;
    };
    // The relay is down: each connection, reset, closes the socket and schedules the next.
    const first = heard("reconnect");
    socket.connect();
    await first;
    expect(events).toEqual(["connecting", "error", "close", "reconnect"]);
    await reconnectUntil("reconnect");
    down.up();
    // Two upgrades answered 503, each closing its socket and scheduling the next; the third is accepted.
    await reconnectUntil("reconnect");
    await reconnectUntil("reconnect");
    await reconnectUntil("open");
    expect(socket.isOpen).toBe(true);
    expect(events.filter((e) => e === "open")).toHaveLength(1);
    expect(events.filter((e) => e === "close")).toHaveLength(4);
    expect(events.filter((e) => e === "connecting")).toHaveLength(5);
    const stopped = socket.stop();
    for (const s of upgraded) s.destroy();
    await stopped;
  });
});
