import type { NodeFrame } from "../../protocol/node-frames";
import { asError, type Emit } from "./events";
import { encodeNodeFrame } from "./frame-codec";
import { type Backoff, Reconnect, type ReconnectTimer } from "./reconnect";

/** The transport a connection needs; `nativeSocket` (Node 22's global WebSocket) unless a test swaps it. */
export interface SocketHandlers {
  open(): void;
  message(data: string): void;
  close(code: number, reason: string): void;
  error(error: Error): void;
}

export interface ResolverSocket {
  send(data: string): void;
  close(code: number, reason: string): void;
  readonly isOpen: boolean;
}

export type SocketFactory = (url: string, handlers: SocketHandlers) => ResolverSocket;

/**
 * Node 22's WebSocket (undici) reports a connection that never opened (refused, or answered without a 101,
 * as by a relay that is restarting) with an `error` and no `close`, and stays CONNECTING: without a close
 * nothing would reconnect. Such an error closes the socket here (1006, as the standard's "fail the
 * connection" does), once, whatever the platform sends after it.
 */
export const nativeSocket: SocketFactory = (url, handlers) => {
  const ws = new WebSocket(url);
  let opened = false;
  let closed = false;
  const close = (code: number, reason: string) => {
    if (closed) return;
    closed = true;
    handlers.close(code, reason);
  };
  ws.addEventListener("open", () => {
    opened = true;
    handlers.open();
  });
  ws.addEventListener("message", (event) => {
    if (typeof event.data === "string") handlers.message(event.data);
    else handlers.error(new Error("the relay sent a binary frame"));
  });
  ws.addEventListener("close", (event) => close(event.code, event.reason));
  ws.addEventListener("error", () => {
    handlers.error(new Error(`socket error on ${url}`));
    if (!opened) close(1006, "connection failed");
  });
  return {
    send: (data) => ws.send(data),
    close: (code, reason) => ws.close(code, reason),
    get isOpen() {
      return ws.readyState === WebSocket.OPEN;
    },
  };
};

export interface CorridorSocketOptions {
  /** The corridor's canonical key, named in every event. */
  corridor: string;
  url: string;
  factory: SocketFactory;
  random: () => number;
  backoff?: Backoff;
  /** How reconnects wait: the platform's timers unless a test gives its fake clock. */
  timer?: ReconnectTimer;
  emit: Emit;
  /** Each text frame the relay sends. */
  onMessage(data: string): void;
  /** The socket closed, before any reconnect: whatever the session held is over. */
  onClose(): void;
}

/**
 * One corridor's socket: opened, reopened with backoff whenever it closes until `stop()`, and a `send`
 * that refuses (false) rather than throws when the socket is closing or the frame is not a protocol frame.
 */
export class CorridorSocket {
  private socket: ResolverSocket | null = null;
  private readonly reconnect: Reconnect;
  private stopped = false;
  /** Resolves `stop()`'s wait once the socket has closed. */
  private onStopped: (() => void) | null = null;

  constructor(private readonly options: CorridorSocketOptions) {
    this.reconnect = new Reconnect(options.random, options.backoff, options.timer);
  }

  get isOpen(): boolean {
    return this.socket?.isOpen ?? false;
  }

  connect(): void {
    if (this.stopped) return;
    const { corridor, url, factory, emit } = this.options;
    emit("connecting", { corridor, url, attempt: this.reconnect.attempts });
    let socket: ResolverSocket;
    try {
      socket = factory(url, {
        open: () => emit("open", { corridor }),
        message: (data) => this.options.onMessage(data),
        close: (code, reason) => this.closed(socket, code, reason),
        error: (error) => emit("error", { corridor, error }),
      });
    } catch (e) {
      emit("error", { corridor, error: asError(e) });
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
  }

  /** The relay welcomed the node on this socket. */
  welcomed(): void {
    this.reconnect.reset();
  }

  /** Validates the frame against the protocol before it leaves; a closing socket swallows it. */
  send(frame: NodeFrame): boolean {
    const { corridor, emit } = this.options;
    const data = encodeNodeFrame(frame);
    if (data === null) {
      emit("error", { corridor, error: new Error(`refused to send an invalid ${frame.type} frame`) });
      return false;
    }
    if (!this.socket?.isOpen) return false;
    try {
      this.socket.send(data);
    } catch {
      return false;
    }
    emit("sent", { corridor, frame });
    return true;
  }

  /** Closes with 1000 `stopped` and never reconnects; resolves once closed (at once if no socket is open). */
  stop(): Promise<void> {
    this.stopped = true;
    this.reconnect.cancel();
    const socket = this.socket;
    if (!socket) return Promise.resolve();
    const closed = new Promise<void>((resolve) => (this.onStopped = resolve));
    socket.close(1000, "stopped");
    return closed;
  }

  private closed(socket: ResolverSocket, code: number, reason: string): void {
    // A replaced socket's late close must not tear down its successor.
    if (this.socket !== socket) return;
    this.socket = null;
    this.reconnect.cancel();
    this.options.onClose();
    this.options.emit("close", { corridor: this.options.corridor, code, reason });
    if (this.stopped) this.onStopped?.();
    else this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    const next = this.reconnect.schedule(() => this.connect());
    this.options.emit("reconnect", { corridor: this.options.corridor, ...next });
  }
}
