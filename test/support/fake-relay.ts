import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import type WebSocket from "ws";
import type { RelayFrame } from "../../src/protocol/relay-frames";
import type { Band } from "../../src/schemas/quote";

// A relay stand-in on a loopback port (the `ws` package arrives with wrangler), for the reference
// resolver's tests: it records what the resolver sends and lets each test script the relay's side of the
// protocol. The installed `ws` types are v7's, which know the server only as `WebSocket.Server`, and only
// the CommonJS entry still has it.
const { Server: WebSocketServer } = createRequire(import.meta.url)("ws") as typeof WebSocket;

export interface Received {
  type: string;
  [key: string]: unknown;
}

export class RelaySocket {
  private readonly frames: Received[] = [];
  private readonly waiters: { match: (f: Received) => boolean; resolve: (f: Received) => void }[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  constructor(
    readonly socket: WebSocket,
    readonly path: string,
    private readonly corridor: string,
    private readonly band: Band | null,
  ) {
    socket.on("message", (data) => {
      const frame = JSON.parse(String(data)) as Received;
      const waiter = this.waiters.findIndex((w) => w.match(frame));
      if (waiter >= 0) this.waiters.splice(waiter, 1)[0]?.resolve(frame);
      else this.frames.push(frame);
    });
    this.closed = new Promise((resolve) =>
      socket.on("close", (code, reason) => resolve({ code, reason: String(reason) })),
    );
  }

  send(frame: RelayFrame): void {
    this.socket.send(JSON.stringify(frame));
  }

  /** The next frame of `type` the resolver sends (or already sent and nobody took). */
  next(type: string, timeoutMs = 2_000): Promise<Received> {
    const match = (f: Received) => f.type === type;
    const queued = this.frames.findIndex(match);
    if (queued >= 0) return Promise.resolve(this.frames.splice(queued, 1)[0] as Received);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${type} frame within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({
        match,
        resolve: (f) => {
          clearTimeout(timer);
          resolve(f);
        },
      });
    });
  }

  /** Resolves after `ms` when no frame of `type` came meanwhile; rejects with the frame if one did. */
  async nothing(type: string, ms: number): Promise<void> {
    let frame: Received;
    try {
      frame = await this.next(type, ms);
    } catch {
      return;
    }
    throw new Error(`unexpected ${type} frame: ${JSON.stringify(frame)}`);
  }

  /** Challenge, check the auth, welcome: what the relay does with every new socket. */
  async handshake(nonce: string, welcomeBand: Band | null = this.band): Promise<Received> {
    this.send({ type: "challenge", nonce, corridor: this.corridor });
    const auth = await this.next("auth");
    this.send({
      type: "welcome",
      address: String(auth.address),
      corridor: this.corridor,
      rfqWindowMs: 1500,
      band: welcomeBand,
    });
    return auth;
  }
}

/** Serves one corridor: every socket's challenge and welcome name `corridor`, and welcome carries `band`. */
export class FakeRelay {
  private readonly server: WebSocket.Server;
  private readonly pending: RelaySocket[] = [];
  private readonly waiters: ((s: RelaySocket) => void)[] = [];
  connections = 0;

  constructor(options: { corridor: string; band: Band | null }) {
    this.server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
    this.server.on("connection", (socket, request) => {
      this.connections += 1;
      const relaySocket = new RelaySocket(socket, request.url ?? "", options.corridor, options.band);
      const waiter = this.waiters.shift();
      if (waiter) waiter(relaySocket);
      else this.pending.push(relaySocket);
    });
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  listening(): Promise<void> {
    return new Promise((resolve) => (this.server.address() ? resolve() : this.server.once("listening", resolve)));
  }

  nextConnection(timeoutMs = 2_000): Promise<RelaySocket> {
    const queued = this.pending.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no connection")), timeoutMs);
      this.waiters.push((s) => {
        clearTimeout(timer);
        resolve(s);
      });
    });
  }

  close(): Promise<void> {
    for (const client of this.server.clients) client.terminate();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
