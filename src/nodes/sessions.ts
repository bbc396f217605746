import type { AuctionReply } from "../auction";
import { resolverKey } from "../ids";
import {
  type AuthFrame,
  CLOSE_POLICY,
  CLOSE_REASONS,
  close,
  frameSize,
  type HeartbeatFrame,
  MAX_FRAME_BYTES,
  parseNodeFrame,
  type RelayFrame,
  send,
} from "../protocol";
import { accrue, startUptime } from "../resolvers";
import type { AdvertisedCorridor, Band } from "../schemas";
import { verifyNodeAuth } from "./auth";
import type { NodeFrameEvents } from "./frame-events";
import type { Claims } from "./inventory-checks";
import { NodeSockets, type SocketEntry, type SocketState } from "./node-sockets";
import { type ChainFlag, NO_HEARTBEAT, type NodeSession, shownState } from "./nodes";
import { SessionRecords } from "./session-records";

/** The node sessions' host: the corridor they serve and what it asks of them. */
export interface NodeSessionsHost {
  corridorKey: string;
  requireRegistration: boolean;
  rfqWindowMs: number;
  db: D1Database;
  band(): Band | null;
  /** What the chain holds against the node (code at its address, claims it does not hold), or null. */
  chainFlag(address: string): ChainFlag | null;
}

/**
 * The node sockets of one corridor: accepted, authenticated, kept through heartbeats, restored after
 * hibernation (src/nodes/node-sockets.ts), forgotten on close; their state written to D1
 * (src/nodes/session-records.ts). Frames that concern auctions are handed back to the caller.
 */
export class NodeSessions {
  private readonly sockets: NodeSockets;
  private readonly records: SessionRecords;

  constructor(
    state: SocketState,
    private readonly host: NodeSessionsHost,
  ) {
    this.sockets = new NodeSockets(state);
    this.records = new SessionRecords(host.db, (p) => state.waitUntil(p));
  }

  /** Accepts a node's socket and challenges it; the caller closes it at `authDeadline` unless it authenticated. */
  accept(corridor: AdvertisedCorridor, opener: string): { client: WebSocket; authDeadline: number } {
    const { client, server, entry } = this.sockets.open(corridor, opener, Date.now());
    const { nonce, authDeadline } = entry.attachment;
    send(server, { type: "challenge", nonce, corridor: this.host.corridorKey });
    return { client, authDeadline };
  }

  /**
   * One message from a socket: limits, auth and heartbeats are dealt with here; a reply to an auction is
   * returned. A node's first reply to an rfq it was asked is solicited: an auction rate above 50/s must
   * not close its resolvers. Every other frame, duplicate and unknown replies included, counts toward the
   * flood limit.
   */
  async receive(ws: WebSocket, message: string | ArrayBuffer, events: NodeFrameEvents): Promise<AuctionReply | null> {
    const { auctions } = events;
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
      // A malformed ladder is refused and stores nothing; the node stays connected.
      if (node && parsed.type === "levels") return this.refuse(ws, { code: "bad_levels", message: parsed.message });
      return this.reject(ws, CLOSE_REASONS.badFrame, parsed.message);
    }
    const frame = parsed.frame;
    if (!node) {
      if (frame.type !== "auth") return this.reject(ws, CLOSE_REASONS.badFrame, "the first frame must be auth");
      await this.authenticate(ws, entry, frame, events);
      return null;
    }
    switch (frame.type) {
      case "auth":
        send(ws, { type: "error", code: "already_authenticated", message: "this socket is authenticated" });
        return null;
      case "heartbeat":
        this.heartbeat(ws, entry, frame, events);
        return null;
      case "levels":
        return this.refuse(ws, events.onLevels(this.sessionOf(entry), frame));
      default:
        return { node: this.sessionOf(entry), frame };
    }
  }

  /** How many sockets `opener` holds open on this corridor. */
  heldBy(opener: string): number {
    return this.sockets.heldBy(opener);
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
    const entry = this.sockets.ofAddress(address)?.[1];
    const at = entry?.attachment.node?.lastHeartbeat;
    return entry && typeof at === "number" ? { inventory: entry.heard.inventory, at } : null;
  }

  /** Writes the node's state as the relay shows it to its directory entry now, e.g. when the relay's view changed. */
  writeState(address: string): void {
    const found = this.sockets.ofAddress(address);
    if (!found) return;
    const [ws, entry] = found;
    this.touchDirectory(entry, Date.now());
    this.sockets.save(ws, entry);
  }

  /**
   * The chain covered what the node claims: it gets its directory entry now, with its state as shown
   * (src/nodes/session-records.ts); until then a node is in no D1 table of its own.
   */
  listed(address: string): void {
    const found = this.sockets.ofAddress(address);
    const node = found?.[1].attachment.node;
    if (!found || !node) return;
    const [ws, entry] = found;
    const shown = shownState(node.state, node.degraded, this.host.chainFlag(node.address));
    this.records.listed(entry.attachment, shown, Date.now());
    this.sockets.save(ws, entry);
  }

  /** Closes the node's socket with an `error` frame and 1008 `reason`, e.g. once it is de-registered. */
  closeNode(address: string, reason: string, message: string): boolean {
    const found = this.sockets.ofAddress(address);
    if (found) this.reject(found[0], reason, message);
    return found !== null;
  }

  /** Sends a frame to the node with this address, if it is connected. */
  sendTo(address: string, frame: RelayFrame): void {
    const wanted = resolverKey(address);
    for (const [ws, { attachment }] of this.sockets) {
      if (attachment.node && resolverKey(attachment.node.address) === wanted) send(ws, frame);
    }
  }

  /** Sends a frame to every authenticated node. */
  broadcast(frame: RelayFrame): void {
    for (const [ws, { attachment }] of this.sockets) if (attachment.node) send(ws, frame);
  }

  /** Drops a socket and what it reported; returns the node's address when it had authenticated. */
  forget(ws: WebSocket): string | null {
    const entry = this.sockets.drop(ws);
    if (!entry?.attachment.node) return null;
    this.records.release(entry.attachment, Date.now());
    return entry.attachment.node.address;
  }

  /** Verifies the auth signature and registration; one socket per node, so an older one is replaced. */
  private async authenticate(
    ws: WebSocket,
    entry: SocketEntry,
    frame: AuthFrame,
    events: NodeFrameEvents,
  ): Promise<void> {
    const { attachment } = entry;
    const proved = await verifyNodeAuth(frame, this.host.corridorKey, attachment.nonce);
    if (!proved.ok) {
      this.reject(ws, proved.reason, "the auth signature does not match the address");
      return;
    }
    if (this.host.requireRegistration && !(await this.records.registered(proved.address))) {
      this.reject(ws, CLOSE_REASONS.notRegistered, "this relay only accepts registered resolvers");
      return;
    }
    if (!this.sockets.get(ws)) return; // closed while we checked
    for (const [other, { attachment: a }] of this.sockets) {
      if (other !== ws && a.node?.address === proved.address) {
        close(other, 1000, "replaced");
        this.forget(other);
      }
    }
    const now = Date.now();
    attachment.node = {
      address: proved.address,
      solanaAddress: proved.solanaAddress,
      name: frame.name,
      version: frame.version,
      region: frame.region ?? null,
      signerType: frame.signerType ?? null,
      publicKey: proved.publicKey,
      lastHeartbeat: null,
      // It has said nothing of its state yet: not asked until its first heartbeat (docs/resolver-protocol.md).
      state: "degraded",
      degraded: NO_HEARTBEAT,
    };
    attachment.lastDirectoryWrite = now;
    attachment.uptime = startUptime(now);
    this.sockets.save(ws, entry);
    send(ws, {
      type: "welcome",
      address: proved.address,
      corridor: this.host.corridorKey,
      rfqWindowMs: this.host.rfqWindowMs,
      band: this.host.band(),
    });
    this.records.seen(attachment, now);
    events.onActive(now);
    events.onAuthenticated(this.sessionOf(entry), now);
  }

  /** Keeps the node's state and inventory; its directory entry is refreshed at most once a minute. */
  private heartbeat(ws: WebSocket, entry: SocketEntry, frame: HeartbeatFrame, events: NodeFrameEvents): void {
    const { attachment } = entry;
    const node = attachment.node;
    if (!node) return;
    const now = Date.now();
    attachment.uptime = accrue(attachment.uptime, node.lastHeartbeat, now);
    node.lastHeartbeat = now;
    node.state = frame.state;
    node.degraded = frame.state === "degraded" ? (frame.degraded ?? null) : null;
    this.sockets.hear(entry, {
      inventory: frame.inventory,
      chains: (frame.chains ?? []).map((c) => ({ chainId: c.chainId, state: c.state, degraded: c.degraded ?? null })),
    });
    events.onActive(now);
    events.onHeartbeat(this.sessionOf(entry), now);
    if (this.records.due(attachment, now)) this.touchDirectory(entry, now);
    this.sockets.save(ws, entry);
  }

  /** Refreshes the node's directory entry with its state as shown; the caller saves the attachment. */
  private touchDirectory({ attachment }: SocketEntry, now: number): void {
    const node = attachment.node;
    if (!node) return;
    const shown = shownState(node.state, node.degraded, this.host.chainFlag(node.address));
    this.records.touch(attachment, shown, now);
  }

  private sessionOf({ attachment, heard }: SocketEntry): NodeSession {
    const node = attachment.node;
    if (!node) throw new Error("the socket has not authenticated");
    const chainFlag = this.host.chainFlag(node.address);
    return { ...node, corridor: attachment.corridor, connectedAt: attachment.connectedAt, ...heard, chainFlag };
  }

  /** A frame refused without closing: an `error` frame with its code, if there is one. */
  private refuse(ws: WebSocket, refusal: { code: string; message: string } | null): null {
    if (refusal) send(ws, { type: "error", ...refusal });
    return null;
  }

  /** Policy violation: an `error` frame with the reason, then close 1008 with the same reason. */
  private reject(ws: WebSocket, reason: string, message: string): null {
    send(ws, { type: "error", code: reason, message });
    close(ws, CLOSE_POLICY, reason);
    this.forget(ws);
    return null;
  }
}
