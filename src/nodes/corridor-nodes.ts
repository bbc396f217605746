import type { LiveAuctions } from "../auction";
import type { Refusal } from "../errors";
import type { ClientId } from "../limits";
import {
  type AuthFrame,
  CLOSE_POLICY,
  CLOSE_REASONS,
  close,
  type HeartbeatFrame,
  type RelayFrame,
  send,
  sendText,
} from "../protocol";
import { startUptime } from "../resolvers";
import type { AdvertisedCorridor } from "../schemas";
import { authenticatedNode, verifyNodeAuth } from "./auth";
import { gateFrame } from "./frame-gate";
import type { NodeChecks } from "./inventory-checks";
import { NodeSockets, type SocketEntry, type SocketState, sessionOf } from "./node-sockets";
import { isFresh, type NodeSession, shownState } from "./nodes";
import type { CorridorNodesHost, NodeEvent } from "./ports";
import { SessionRecords } from "./session-records";
import { SocketQuota } from "./socket-quota";

type Accepted = { client: WebSocket; authDeadline: number };

/**
 * A corridor's node sockets: accepted within their client's limits, authenticated, kept through heartbeats,
 * restored after hibernation (src/nodes/node-sockets.ts), their state written to D1. What a node claims is
 * checked on chain by the checks the host builds around them (src/nodes/inventory-checks.ts), when it
 * authenticates and as it heartbeats; it shows degraded while its address has code or its claims are
 * untrue. What a frame raises for the corridor's other parts (a ladder, an auction's reply) is handed back.
 */
export class CorridorNodes {
  private readonly sockets: NodeSockets;
  private readonly records: SessionRecords;
  private readonly quota: SocketQuota;
  private readonly checks: NodeChecks;

  constructor(
    state: SocketState,
    private readonly host: CorridorNodesHost,
    /** The corridor's live auctions, which the flood limit and malformed replies read (src/nodes/frame-gate.ts). */
    private readonly auctions: LiveAuctions,
  ) {
    this.sockets = new NodeSockets(state);
    this.records = new SessionRecords(host.db, (p) => state.waitUntil(p));
    this.quota = new SocketQuota(host.limits);
    this.checks = host.checks({
      claims: (address) => this.sockets.claims(address),
      onFlagChange: (address) => this.writeState(address),
      onCovered: (address) => this.listed(address),
    });
  }

  /**
   * A connect request from `opener`: the new socket's client end, challenged, and by when it must
   * authenticate (the caller closes it then), or the limit it is over (docs/security.md, "Limits").
   */
  accept(corridor: AdvertisedCorridor, opener: ClientId, now: number): Accepted | Refusal {
    const refused = this.quota.admit(opener, this.sockets.heldBy(opener), this.sockets.size, now);
    if (refused) return refused;
    const { client, server, entry } = this.sockets.open(corridor, opener, now);
    const { nonce, authDeadline } = entry.attachment;
    send(server, { type: "challenge", nonce, corridor: this.host.corridorKey });
    return { client, authDeadline };
  }

  /**
   * One message from a socket, once its size, shape and rate pass (src/nodes/frame-gate.ts): auth and
   * heartbeats are dealt with here; what the frame raises for the corridor's other parts is returned.
   */
  async receive(ws: WebSocket, message: string | ArrayBuffer): Promise<NodeEvent | null> {
    const entry = this.sockets.get(ws);
    if (!entry) return null;
    const node = entry.attachment.node;
    const gated = gateFrame(message, node?.address ?? null, entry.limiter, this.auctions, Date.now());
    if ("reject" in gated) return this.reject(ws, gated.reject, gated.message);
    if ("refuse" in gated) return this.refuse(ws, gated.refuse);
    if ("malformed" in gated) return { type: "reply", reply: { node: this.sessionOf(entry), ...gated } };
    const { frame } = gated;
    // A ping the runtime did not answer (not its exact bytes) is answered here, authenticated or not.
    if (frame.type === "ping") return this.answer(ws, { type: "pong" });
    if (!node) {
      if (frame.type !== "auth") return this.reject(ws, CLOSE_REASONS.badFrame, "the first frame must be auth");
      return this.authenticate(ws, entry, frame);
    }
    switch (frame.type) {
      case "auth":
        return this.answer(ws, {
          type: "error",
          code: "already_authenticated",
          message: "this socket is authenticated",
        });
      case "heartbeat":
        return this.heartbeat(ws, entry, frame);
      case "levels":
        return { type: "levels", node: this.sessionOf(entry), frame };
      default:
        return { type: "reply", reply: { node: this.sessionOf(entry), frame } };
    }
  }

  /** A frame refused without closing the node's socket: an `error` frame with its code, if there is one. */
  refuseTo(address: string, refusal: { code: string; message: string } | null): void {
    if (refusal) this.send(address, { type: "error", ...refusal });
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

  /** How many nodes have a fresh heartbeat at `now`. */
  fresh(now: number): number {
    return this.list().filter((n) => isFresh(n.lastHeartbeat, now)).length;
  }

  /** Whether the relay's last on-chain read of the node shows `atLeast` of `token`. */
  covers(address: string, token: string, atLeast: bigint): boolean {
    return this.checks.covers(address, token, atLeast);
  }

  /** When the relay's last successful on-chain read of the node started, or null before one. */
  readAt(address: string): number | null {
    return this.checks.readAt(address);
  }

  /** Writes the node's state as the relay shows it to its directory entry now, e.g. when the relay's view changed. */
  private writeState(address: string): void {
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
  private listed(address: string): void {
    const found = this.sockets.ofAddress(address);
    const node = found?.[1].attachment.node;
    if (!found || !node) return;
    const [ws, entry] = found;
    const shown = shownState(node.state, node.degraded, this.checks.flag(node.address));
    this.records.listed(entry.attachment, shown, Date.now());
    this.sockets.save(ws, entry);
  }

  /** An admin de-registered the resolver: its socket here is closed (1008 `reason`); the address if it was open. */
  close(address: string, reason: string, message: string): string | null {
    const found = this.sockets.ofAddress(address);
    if (!found) return null;
    this.reject(found[0], reason, message);
    this.checks.forget(address);
    return address;
  }

  /** Sends a frame to the node with this address, if it is connected. */
  send(address: string, frame: RelayFrame): void {
    this.sendToEach([address], frame);
  }

  /** Sends one frame, serialized once, to each of these nodes that is connected. */
  sendToEach(addresses: readonly string[], frame: RelayFrame): void {
    const text = JSON.stringify(frame);
    for (const address of addresses) {
      const found = this.sockets.ofAddress(address);
      if (found) sendText(found[0], text);
    }
  }

  /** Sends a frame, serialized once, to every authenticated node. */
  broadcast(frame: RelayFrame): void {
    const text = JSON.stringify(frame);
    for (const [ws, { attachment }] of this.sockets) if (attachment.node) sendText(ws, text);
  }

  /** A socket closed or failed: forgotten, with its node's inventory check; the node's address, for the caller to tell. */
  gone(ws: WebSocket): string | null {
    const address = this.forget(ws);
    if (address) this.checks.forget(address);
    return address;
  }

  /** Drops a socket and what it reported; returns the node's address when it had authenticated. */
  private forget(ws: WebSocket): string | null {
    const entry = this.sockets.drop(ws);
    if (!entry?.attachment.node) return null;
    this.records.release(entry.attachment, Date.now());
    return entry.attachment.node.address;
  }

  /** Verifies the auth signature and registration; one socket per node, so an older one is replaced. */
  private async authenticate(ws: WebSocket, entry: SocketEntry, frame: AuthFrame): Promise<NodeEvent | null> {
    const { attachment } = entry;
    const proved = await verifyNodeAuth(frame, this.host.corridorKey, attachment.nonce);
    if (!proved.ok) {
      return this.reject(ws, proved.reason, "the auth signature does not match the address");
    }
    const registered = await this.records.registered(proved.address);
    if (this.host.requireRegistration && !registered) {
      return this.reject(ws, CLOSE_REASONS.notRegistered, "this relay only accepts registered resolvers");
    }
    if (!this.sockets.get(ws)) return null; // closed while we checked
    const now = Date.now();
    if (registered) attachment.client = this.quota.claim(attachment.client, proved.address, now);
    for (const [other, { attachment: a }] of this.sockets) {
      if (other !== ws && a.node?.address === proved.address) {
        close(other, 1000, "replaced");
        this.forget(other);
      }
    }
    attachment.node = authenticatedNode(proved, frame);
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
    this.checks.restart(attachment.node, now);
    return { type: "authenticated", node: this.sessionOf(entry) };
  }

  /** Keeps the node's state and inventory; its directory entry is refreshed at most once a minute. */
  private heartbeat(ws: WebSocket, entry: SocketEntry, frame: HeartbeatFrame): NodeEvent | null {
    const { attachment } = entry;
    const node = attachment.node;
    if (!node) return null;
    const now = Date.now();
    this.sockets.hear(entry, frame, now);
    this.checks.heard(node, now);
    if (this.records.due(attachment, now)) this.touchDirectory(entry, now);
    this.sockets.save(ws, entry);
    return { type: "heartbeat", node: this.sessionOf(entry) };
  }

  /** Refreshes the node's directory entry with its state as shown; the caller saves the attachment. */
  private touchDirectory({ attachment }: SocketEntry, now: number): void {
    const node = attachment.node;
    if (!node) return;
    const shown = shownState(node.state, node.degraded, this.checks.flag(node.address));
    this.records.touch(attachment, shown, now);
  }

  private sessionOf(entry: SocketEntry): NodeSession {
    return sessionOf(entry, entry.attachment.node && this.checks.flag(entry.attachment.node.address));
  }

  /** A frame refused without closing: an `error` frame with its code, if there is one. */
  private refuse(ws: WebSocket, refusal: { code: string; message: string } | null): null {
    return this.answer(ws, refusal && { type: "error", ...refusal });
  }

  /** Sends `frame`, if there is one; nothing for the auction. */
  private answer(ws: WebSocket, frame: RelayFrame | null): null {
    if (frame) send(ws, frame);
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
