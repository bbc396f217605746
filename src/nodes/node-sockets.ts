import { resolverKey } from "../ids";
import { AUTH_TIMEOUT_MS, type HeartbeatFrame } from "../protocol";
import { accrue, startUptime, type Uptime } from "../resolvers";
import type { AdvertisedCorridor } from "../schemas";
import { FrameLimiter } from "./frame-limiter";
import type { Claims } from "./inventory-checks";
import type { ChainFlag, NodeSession } from "./nodes";

/**
 * What of a Durable Object's state the node sockets live in: its hibernatable sockets, its synchronous
 * storage and its `waitUntil`. A `DurableObjectState` is one.
 */
export interface SocketState {
  acceptWebSocket(ws: WebSocket): void;
  getWebSockets(): WebSocket[];
  storage: { kv: Pick<SyncKvStorage, "get" | "put" | "delete"> };
  waitUntil(promise: Promise<unknown>): void;
}

/**
 * A socket's state, kept in its attachment so that it survives hibernation (under 2 KiB). `kind` tells
 * a node socket from the corridor's other kinds of socket when they are restored. A node's inventory and
 * chain reports can outgrow an attachment: they live in the object's storage (`heardKey`).
 */
export interface Attachment {
  kind: "node";
  nonce: string;
  /** Who the socket counts against (docs/security.md, "Clients"): its opener, or the registered resolver it proved. */
  client: string;
  corridor: AdvertisedCorridor;
  connectedAt: number;
  authDeadline: number;
  lastDirectoryWrite: number;
  /** Uptime since the last directory write, counted from authentication (docs/reliability.md). */
  uptime: Uptime;
  /** Null until the node authenticates. */
  node: Omit<NodeSession, "corridor" | "connectedAt" | "inventory" | "chains"> | null;
}

/** What the node's last heartbeat reported. */
export type Heard = Pick<NodeSession, "inventory" | "chains">;

export interface SocketEntry {
  attachment: Attachment;
  heard: Heard;
  limiter: FrameLimiter;
}

const heardKey = (a: Attachment) => `socket:${a.nonce}`;
const nothingHeard = (): Heard => ({ inventory: [], chains: [] });

/**
 * The bookkeeping of a corridor's node sockets: each socket's entry, restored from the object's sockets
 * and their attachments after hibernation, kept in step with the attachment and storage, dropped on close.
 */
export class NodeSockets implements Iterable<[WebSocket, SocketEntry]> {
  private readonly sockets = new Map<WebSocket, SocketEntry>();
  /** Where `ofAddress` last found each node: checked before it is used, so a socket gone or replaced is never returned. */
  private readonly found = new Map<string, WebSocket>();

  constructor(private readonly state: SocketState) {
    for (const ws of state.getWebSockets()) {
      const attachment = ws.deserializeAttachment() as Attachment | null;
      if (attachment?.kind !== "node") continue;
      const heard = state.storage.kv.get<Heard>(heardKey(attachment)) ?? nothingHeard();
      this.sockets.set(ws, { attachment, heard, limiter: new FrameLimiter() });
    }
  }

  /** A new node socket, accepted by the object (so it hibernates) and yet to authenticate by its deadline. */
  open(
    corridor: AdvertisedCorridor,
    opener: string,
    now: number,
  ): { client: WebSocket; server: WebSocket; entry: SocketEntry } {
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    this.state.acceptWebSocket(server);
    const attachment: Attachment = {
      kind: "node",
      nonce: crypto.randomUUID(),
      client: opener,
      corridor,
      connectedAt: now,
      authDeadline: now + AUTH_TIMEOUT_MS,
      lastDirectoryWrite: now,
      uptime: startUptime(now),
      node: null,
    };
    server.serializeAttachment(attachment);
    const entry = { attachment, heard: nothingHeard(), limiter: new FrameLimiter() };
    this.sockets.set(server, entry);
    return { client, server, entry };
  }

  /** How many sockets are open here, authenticated or not. */
  get size(): number {
    return this.sockets.size;
  }

  /** How many sockets `opener` holds open here. */
  heldBy(opener: string): number {
    let held = 0;
    for (const { attachment } of this.sockets.values()) if (attachment.client === opener) held += 1;
    return held;
  }

  get(ws: WebSocket): SocketEntry | undefined {
    return this.sockets.get(ws);
  }

  [Symbol.iterator](): Iterator<[WebSocket, SocketEntry]> {
    return this.sockets[Symbol.iterator]();
  }

  values(): IterableIterator<SocketEntry> {
    return this.sockets.values();
  }

  /**
   * The authenticated socket of the node with this address (one per corridor). Found at once where it was
   * last found, so a frame to each bidder of an auction costs no walk over every socket.
   */
  ofAddress(address: string): [WebSocket, SocketEntry] | null {
    const wanted = resolverKey(address);
    const isWanted = (entry: SocketEntry | undefined): entry is SocketEntry => {
      const node = entry?.attachment.node;
      return !!node && resolverKey(node.address) === wanted;
    };
    const last = this.found.get(wanted);
    const lastEntry = last && this.sockets.get(last);
    if (last && isWanted(lastEntry)) return [last, lastEntry];
    for (const [ws, entry] of this.sockets) {
      if (!isWanted(entry)) continue;
      this.found.set(wanted, ws);
      return [ws, entry];
    }
    this.found.delete(wanted);
    return null;
  }

  /** Keeps the entry's attachment with its socket, so that it survives hibernation. */
  save(ws: WebSocket, entry: SocketEntry): void {
    ws.serializeAttachment(entry.attachment);
  }

  /**
   * Keeps what the node's heartbeat said: its state on the attachment (the caller saves it), its
   * inventory and chains in storage, since they can outgrow an attachment.
   */
  hear(entry: SocketEntry, frame: HeartbeatFrame, now: number): void {
    const node = entry.attachment.node;
    if (!node) return;
    entry.attachment.uptime = accrue(entry.attachment.uptime, node.lastHeartbeat, now);
    node.lastHeartbeat = now;
    node.state = frame.state;
    node.degraded = frame.state === "degraded" ? (frame.degraded ?? null) : null;
    entry.heard = {
      inventory: frame.inventory,
      chains: (frame.chains ?? []).map((c) => ({ chainId: c.chainId, state: c.state, degraded: c.degraded ?? null })),
    };
    this.state.storage.kv.put(heardKey(entry.attachment), entry.heard);
  }

  /** What the node with this address claims in its last heartbeat, or null before one (or when it is not connected). */
  claims(address: string): Claims | null {
    const entry = this.ofAddress(address)?.[1];
    const at = entry?.attachment.node?.lastHeartbeat;
    return entry && typeof at === "number" ? { inventory: entry.heard.inventory, at } : null;
  }

  /** Drops a socket and what it reported; its entry, or null when it was not a node socket (or is gone). */
  drop(ws: WebSocket): SocketEntry | null {
    const entry = this.sockets.get(ws);
    if (!entry) return null;
    this.sockets.delete(ws);
    this.state.storage.kv.delete(heardKey(entry.attachment));
    return entry;
  }
}

/** The session of an authenticated socket's entry, with what the chain holds against it. */
export function sessionOf({ attachment, heard }: SocketEntry, chainFlag: ChainFlag | null): NodeSession {
  const node = attachment.node;
  if (!node) throw new Error("the socket has not authenticated");
  return { ...node, corridor: attachment.corridor, connectedAt: attachment.connectedAt, ...heard, chainFlag };
}
