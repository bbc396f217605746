import { countStatement } from "../db/resolver-days";
import { isRegistered, recordNodeSeen, touchStatement } from "../db/resolvers";
import { close, frameSize, parseNodeFrame, send } from "../protocol/codec";
import {
  AUTH_TIMEOUT_MS,
  type AuthFrame,
  type BidFrame,
  CLOSE_POLICY,
  CLOSE_REASONS,
  type DeclineFrame,
  type HeartbeatFrame,
  MAX_FRAME_BYTES,
  type RelayFrame,
  type SignedFrame,
} from "../protocol/frames";
import { accrue, startUptime, type Uptime } from "../resolvers/uptime";
import type { BandValue } from "../schemas/quote";
import type { AdvertisedCorridor } from "../schemas/resolvers";
import { verifyNodeAuth } from "./auth";
import { FrameLimiter } from "./frame-limiter";
import type { Claims } from "./inventory-checks";
import { type NodeSession, shownState } from "./nodes";

/** How often a node's heartbeats may refresh its directory entry in D1. */
const DIRECTORY_WRITE_EVERY_MS = 60_000;

/**
 * A socket's state, kept in its attachment so that it survives hibernation (under 2 KiB). `kind` tells
 * a node socket from the corridor's other kinds of socket when they are restored. A node's inventory and
 * chain reports can outgrow an attachment: they live in the object's storage (`heardKey`).
 */
interface Attachment {
  kind: "node";
  nonce: string;
  corridor: AdvertisedCorridor;
  connectedAt: number;
  authDeadline: number;
  lastDirectoryWrite: number;
  /** Uptime since the last directory write, counted from authentication (docs/reliability.md). */
  uptime: Uptime;
  /** Null until the node authenticates. */
  node: Omit<NodeSession, "corridor" | "connectedAt" | "inventory" | "chains"> | null;
}

type Heard = Pick<NodeSession, "inventory" | "chains">;

interface Entry {
  attachment: Attachment;
  heard: Heard;
  limiter: FrameLimiter;
}

/** A node's reply to an auction, for the auction house. */
export type AuctionReply =
  | { node: NodeSession; frame: BidFrame | DeclineFrame | SignedFrame }
  | { node: NodeSession; malformed: { rfqId: string; message: string } };

/** What the sessions ask of the corridor they serve. */
export interface SessionHost {
  corridorKey: string;
  requireRegistration: boolean;
  rfqWindowMs: number;
  db: D1Database;
  band(): BandValue | null;
  /** A node authenticated or heartbeated: the corridor is in use. */
  onActive(now: number): void;
  /** A node authenticated: a new session, whose holdings are yet to be checked. */
  onAuthenticated(node: NodeSession, now: number): void;
  /** A node heartbeated: what it claims may have changed. */
  onHeartbeat(node: NodeSession, now: number): void;
  /** Whether the node claims more inventory than the chain shows it holds. */
  inventoryMismatch(address: string): boolean;
}

/** Which auctions a reply may belong to, for the flood limit and malformed replies. */
export interface LiveAuctions {
  isLive(rfqId: string): boolean;
  /** Whether the node was asked `rfqId` and has not answered it yet. */
  awaits(rfqId: string, address: string): boolean;
}

const heardKey = (a: Attachment) => `socket:${a.nonce}`;
const nothingHeard = (): Heard => ({ inventory: [], chains: [] });

/**
 * The node sockets of one corridor: accepted, authenticated, kept through heartbeats, restored after
 * hibernation, forgotten on close. Frames that concern auctions are handed back to the caller.
 */
export class NodeSessions {
  private readonly sockets = new Map<WebSocket, Entry>();

  constructor(
    private readonly ctx: DurableObjectState,
    private readonly host: SessionHost,
  ) {
    for (const ws of ctx.getWebSockets()) {
      const attachment = ws.deserializeAttachment() as Attachment | null;
      if (attachment?.kind !== "node") continue;
      const heard = ctx.storage.kv.get<Heard>(heardKey(attachment)) ?? nothingHeard();
      this.sockets.set(ws, { attachment, heard, limiter: new FrameLimiter() });
    }
  }

  /** Accepts a node's socket and challenges it; the caller closes it at `authDeadline` unless it authenticated. */
  accept(corridor: AdvertisedCorridor): { client: WebSocket; authDeadline: number } {
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    this.ctx.acceptWebSocket(server);
    const now = Date.now();
    const attachment: Attachment = {
      kind: "node",
      nonce: crypto.randomUUID(),
      corridor,
      connectedAt: now,
      authDeadline: now + AUTH_TIMEOUT_MS,
      lastDirectoryWrite: now,
      uptime: startUptime(now),
      node: null,
    };
    server.serializeAttachment(attachment);
    this.sockets.set(server, { attachment, heard: nothingHeard(), limiter: new FrameLimiter() });
    send(server, { type: "challenge", nonce: attachment.nonce, corridor: this.host.corridorKey });
    return { client, authDeadline: attachment.authDeadline };
  }

  /**
   * One message from a socket: limits, auth and heartbeats are dealt with here; a reply to an auction is
   * returned. A node's first reply to an rfq it was asked is solicited: an auction rate above 50/s must
   * not close its resolvers. Every other frame, duplicate and unknown replies included, counts toward the
   * flood limit.
   */
  async receive(ws: WebSocket, message: string | ArrayBuffer, auctions: LiveAuctions): Promise<AuctionReply | null> {
    const entry = this.sockets.get(ws);
    if (!entry) return null;
    if (frameSize(message) > MAX_FRAME_BYTES) {
      return this.reject(ws, CLOSE_REASONS.frameTooLarge, `frames are limited to ${MAX_FRAME_BYTES} bytes`);
    }
    const parsed = parseNodeFrame(message);
    const node = entry.attachment.node;
    const solicited =
      parsed.ok &&
      (parsed.frame.type === "bid" || parsed.frame.type === "decline") &&
      node !== null &&
      auctions.awaits(parsed.frame.rfqId, node.address);
    if (!solicited && !entry.limiter.allow(Date.now())) {
      return this.reject(ws, CLOSE_REASONS.rateLimited, "over 50 frames per second");
    }
    if (!parsed.ok) {
      // A malformed reply to a live rfq is the node's reply, rejected; the node stays connected.
      if (node && parsed.rfqId && auctions.isLive(parsed.rfqId)) {
        return { node: this.sessionOf(entry), malformed: { rfqId: parsed.rfqId, message: parsed.message } };
      }
      return this.reject(ws, CLOSE_REASONS.badFrame, parsed.message);
    }
    const frame = parsed.frame;
    if (!node) {
      if (frame.type !== "auth") return this.reject(ws, CLOSE_REASONS.badFrame, "the first frame must be auth");
      await this.authenticate(ws, entry, frame);
      return null;
    }
    switch (frame.type) {
      case "auth":
        send(ws, { type: "error", code: "already_authenticated", message: "this socket is authenticated" });
        return null;
      case "heartbeat":
        this.heartbeat(ws, entry, frame);
        return null;
      default:
        return { node: this.sessionOf(entry), frame };
    }
  }

  /** Closes the sockets whose auth deadline passed; the next deadline, or null when none is pending. */
  closeUnauthenticated(now: number): number | null {
    let next: number | null = null;
    for (const [ws, { attachment }] of this.sockets) {
      if (attachment.node) continue;
      if (attachment.authDeadline <= now) this.reject(ws, CLOSE_REASONS.timeout, "no auth within 5 seconds");
      else next = Math.min(next ?? attachment.authDeadline, attachment.authDeadline);
    }
    return next;
  }

  /** The authenticated nodes. */
  list(): NodeSession[] {
    return [...this.sockets.values()].filter((e) => e.attachment.node).map((e) => this.sessionOf(e));
  }

  /** What the node with this address claims in its last heartbeat, or null before one (or when it is not connected). */
  claims(address: string): Claims | null {
    const entry = this.entryOf(address)?.[1];
    const at = entry?.attachment.node?.lastHeartbeat;
    return entry && typeof at === "number" ? { inventory: entry.heard.inventory, at } : null;
  }

  /** Writes the node's state as the relay shows it to its directory entry now, e.g. when the relay's view changed. */
  writeState(address: string): void {
    const found = this.entryOf(address);
    if (!found) return;
    const [ws, entry] = found;
    this.touchDirectory(entry, Date.now());
    ws.serializeAttachment(entry.attachment);
  }

  /** Closes the node's socket with an `error` frame and 1008 `reason`, e.g. once it is de-registered. */
  closeNode(address: string, reason: string, message: string): boolean {
    const found = this.entryOf(address);
    if (found) this.reject(found[0], reason, message);
    return found !== null;
  }

  /** The authenticated socket of the node with this address (one per corridor). */
  private entryOf(address: string): [WebSocket, Entry] | null {
    const wanted = address.toLowerCase();
    for (const [ws, entry] of this.sockets)
      if (entry.attachment.node?.address.toLowerCase() === wanted) return [ws, entry];
    return null;
  }

  /** Sends a frame to the node with this address, if it is connected. */
  sendTo(address: string, frame: RelayFrame): void {
    const wanted = address.toLowerCase();
    for (const [ws, { attachment }] of this.sockets) {
      if (attachment.node?.address.toLowerCase() === wanted) send(ws, frame);
    }
  }

  /** Sends a frame to every authenticated node. */
  broadcast(frame: RelayFrame): void {
    for (const [ws, { attachment }] of this.sockets) if (attachment.node) send(ws, frame);
  }

  /** Drops a socket and what it reported; returns the node's address when it had authenticated. */
  forget(ws: WebSocket): string | null {
    const entry = this.sockets.get(ws);
    if (!entry) return null;
    this.sockets.delete(ws);
    this.ctx.storage.kv.delete(heardKey(entry.attachment));
    const { attachment } = entry;
    const node = attachment.node;
    if (!node) return null;
    const now = Date.now();
    attachment.uptime = accrue(attachment.uptime, node.lastHeartbeat, now);
    const written = this.takeUptime(attachment, new Date(now).toISOString());
    if (written.length > 0) this.ctx.waitUntil(this.host.db.batch(written));
    return node.address;
  }

  /** The uptime the socket accrued, as a write to its node's counters of the day of `at`; counted afresh from `at`. */
  private takeUptime(attachment: Attachment, at: string): D1PreparedStatement[] {
    const { node, uptime } = attachment;
    attachment.uptime = startUptime(uptime.since);
    if (!node || uptime.connectedMs === 0) return [];
    const counts = { connectedMs: uptime.connectedMs, freshMs: uptime.freshMs };
    return [countStatement(this.host.db, node.address, counts, at)];
  }

  /** Verifies the auth signature and registration; one socket per node, so an older one is replaced. */
  private async authenticate(ws: WebSocket, entry: Entry, frame: AuthFrame): Promise<void> {
    const { attachment } = entry;
    const proved = await verifyNodeAuth(frame, this.host.corridorKey, attachment.nonce);
    if (!proved.ok) {
      this.reject(ws, proved.reason, "the auth signature does not match the address");
      return;
    }
    if (this.host.requireRegistration && !(await isRegistered(this.host.db, proved.address))) {
      this.reject(ws, CLOSE_REASONS.notRegistered, "this relay only accepts registered resolvers");
      return;
    }
    if (!this.sockets.has(ws)) return; // closed while we checked
    for (const [other, { attachment: a }] of this.sockets) {
      if (other !== ws && a.node?.address === proved.address) {
        close(other, 1000, "replaced");
        this.forget(other);
      }
    }
    const now = Date.now();
    const identity = {
      address: proved.address,
      solanaAddress: proved.solanaAddress,
      name: frame.name,
      version: frame.version,
      region: frame.region ?? null,
      signerType: frame.signerType ?? null,
    };
    attachment.node = {
      ...identity,
      publicKey: proved.publicKey,
      lastHeartbeat: null,
      state: "paused",
      degraded: null,
    };
    attachment.lastDirectoryWrite = now;
    attachment.uptime = startUptime(now);
    ws.serializeAttachment(attachment);
    send(ws, {
      type: "welcome",
      address: proved.address,
      corridor: this.host.corridorKey,
      rfqWindowMs: this.host.rfqWindowMs,
      band: this.host.band(),
    });
    const seen = { ...identity, corridor: attachment.corridor, state: null, degraded: null };
    this.ctx.waitUntil(recordNodeSeen(this.host.db, { ...seen, at: new Date(now).toISOString() }));
    this.host.onActive(now);
    this.host.onAuthenticated(this.sessionOf(entry), now);
  }

  /** Keeps the node's state and inventory; its directory entry is refreshed at most once a minute. */
  private heartbeat(ws: WebSocket, entry: Entry, frame: HeartbeatFrame): void {
    const { attachment } = entry;
    const node = attachment.node;
    if (!node) return;
    const now = Date.now();
    attachment.uptime = accrue(attachment.uptime, node.lastHeartbeat, now);
    node.lastHeartbeat = now;
    node.state = frame.state;
    node.degraded = frame.state === "degraded" ? (frame.degraded ?? null) : null;
    entry.heard = {
      inventory: frame.inventory,
      chains: (frame.chains ?? []).map((c) => ({ chainId: c.chainId, state: c.state, degraded: c.degraded ?? null })),
    };
    this.ctx.storage.kv.put(heardKey(attachment), entry.heard);
    this.host.onActive(now);
    this.host.onHeartbeat(this.sessionOf(entry), now);
    if (now - attachment.lastDirectoryWrite >= DIRECTORY_WRITE_EVERY_MS) this.touchDirectory(entry, now);
    ws.serializeAttachment(attachment);
  }

  /** Refreshes the node's directory entry (`last_seen`, state as shown); the caller saves the attachment. */
  private touchDirectory({ attachment }: Entry, now: number): void {
    const node = attachment.node;
    if (!node) return;
    attachment.lastDirectoryWrite = now;
    const { state, degraded } = shownState(node.state, node.degraded, this.host.inventoryMismatch(node.address));
    const at = new Date(now).toISOString();
    const { db } = this.host;
    this.ctx.waitUntil(
      db.batch([touchStatement(db, node.address, state, degraded, at), ...this.takeUptime(attachment, at)]),
    );
  }

  private sessionOf({ attachment, heard }: Entry): NodeSession {
    const node = attachment.node;
    if (!node) throw new Error("the socket has not authenticated");
    const inventoryMismatch = this.host.inventoryMismatch(node.address);
    return { ...node, corridor: attachment.corridor, connectedAt: attachment.connectedAt, ...heard, inventoryMismatch };
  }

  /** Policy violation: an `error` frame with the reason, then close 1008 with the same reason. */
  private reject(ws: WebSocket, reason: string, message: string): null {
    send(ws, { type: "error", code: reason, message });
    close(ws, CLOSE_POLICY, reason);
    this.forget(ws);
    return null;
  }
}

/** The corridor a connect URL advertises (`/v1/corridors/{chainId}/{tokenA}/{tokenB}/connect`), in its token order. */
export function advertisedCorridor(url: string): AdvertisedCorridor | null {
  const match = /\/v1\/corridors\/(\d+)\/([^/]+)\/([^/]+)\/connect$/.exec(new URL(url).pathname);
  if (!match) return null;
  const [, chainId = "", tokenA = "", tokenB = ""] = match;
  return { chainId: Number(chainId), baseToken: decodeURIComponent(tokenA), quoteToken: decodeURIComponent(tokenB) };
}
