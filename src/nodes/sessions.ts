import type { ProvedKeys } from "../chains/adapter";
import { close, send } from "../protocol/codec";
import { CLOSE_POLICY, type HeartbeatFrame, type NodeState, type RelayFrame } from "../protocol/frames";
import { FrameLimiter } from "./frame-limiter";
import { type AdvertisedCorridor, type ChainStatus, isFresh, type NodeSession } from "./nodes";

/** Who a node is, as its `auth` frame proved and declared it. */
export interface NodeIdentity extends ProvedKeys {
  name: string;
  version: string;
  region: string | null;
  signerType: string | null;
}

/** A node's standing from its last heartbeat. */
interface NodeStanding {
  lastHeartbeat: number | null;
  state: NodeState;
  degraded: string | null;
  /** When its directory entry in D1 was last refreshed. */
  lastDirectoryWrite: number;
}

/**
 * What a socket keeps in its attachment, so it survives hibernation (under 2 KiB). `kind` tells the
 * sockets of resolver nodes from other kinds of session an object may hold.
 */
export interface NodeAttachment {
  kind: "node";
  advertised: AdvertisedCorridor;
  nonce: string;
  connectedAt: number;
  authDeadline: number;
  node: (NodeIdentity & NodeStanding) | null;
}

/** A heartbeat's reports, kept in the object's storage by socket: they can outgrow an attachment. */
type Reports = { inventory: HeartbeatFrame["inventory"]; chains: ChainStatus[] };

/** One resolver socket of a corridor. */
export interface Session {
  ws: WebSocket;
  attachment: NodeAttachment;
  reports: Reports;
  limiter: FrameLimiter;
}

/** An authenticated session. */
export type NodeOf = Session & { attachment: { node: NonNullable<NodeAttachment["node"]> } };

const noReports = (): Reports => ({ inventory: [], chains: [] });
const reportsKey = (a: NodeAttachment) => `socket:${a.nonce}`;

/**
 * The resolver sockets of one corridor object (docs/resolver-protocol.md), in the manner of a
 * connection manager: restored from the runtime's sockets and their attachments after hibernation,
 * accepted, authenticated, refreshed by heartbeats, forgotten on close. Nothing here knows auctions.
 */
export class NodeSessions {
  private readonly sessions = new Map<WebSocket, Session>();

  constructor(private readonly ctx: DurableObjectState) {
    for (const ws of ctx.getWebSockets()) {
      const attachment = ws.deserializeAttachment() as NodeAttachment | null;
      if (attachment?.kind !== "node") continue;
      const reports = ctx.storage.kv.get<Reports>(reportsKey(attachment)) ?? noReports();
      this.sessions.set(ws, { ws, attachment, reports, limiter: new FrameLimiter() });
    }
  }

  /** Accepts a new socket, unauthenticated until its `auth` frame; sends the challenge. */
  accept(ws: WebSocket, advertised: AdvertisedCorridor, corridor: string, authTimeoutMs: number, now: number): Session {
    this.ctx.acceptWebSocket(ws);
    const attachment: NodeAttachment = {
      kind: "node",
      advertised,
      nonce: crypto.randomUUID(),
      connectedAt: now,
      authDeadline: now + authTimeoutMs,
      node: null,
    };
    ws.serializeAttachment(attachment);
    const session: Session = { ws, attachment, reports: noReports(), limiter: new FrameLimiter() };
    this.sessions.set(ws, session);
    send(ws, { type: "challenge", nonce: attachment.nonce, corridor });
    return session;
  }

  get(ws: WebSocket): Session | undefined {
    return this.sessions.get(ws);
  }

  /** Records a node's proved identity on its socket; its older socket on this corridor is closed. */
  authenticate(session: Session, identity: NodeIdentity, now: number): NodeOf {
    for (const other of this.authenticated()) {
      if (other !== session && other.attachment.node.address === identity.address) {
        close(other.ws, 1000, "replaced");
        this.forget(other.ws);
      }
    }
    session.attachment.node = {
      ...identity,
      lastHeartbeat: null,
      state: "paused",
      degraded: null,
      lastDirectoryWrite: now,
    };
    session.ws.serializeAttachment(session.attachment);
    return session as NodeOf;
  }

  /**
   * A heartbeat: the node's state and reports. Returns whether its directory entry is due a refresh
   * (at most every `directoryEveryMs`).
   */
  heartbeat(session: NodeOf, frame: HeartbeatFrame, now: number, directoryEveryMs: number): boolean {
    const node = session.attachment.node;
    node.lastHeartbeat = now;
    node.state = frame.state;
    node.degraded = frame.state === "degraded" ? (frame.degraded ?? null) : null;
    session.reports = {
      inventory: frame.inventory,
      chains: (frame.chains ?? []).map((c) => ({ chainId: c.chainId, state: c.state, degraded: c.degraded ?? null })),
    };
    this.ctx.storage.kv.put(reportsKey(session.attachment), session.reports);
    const due = now - node.lastDirectoryWrite >= directoryEveryMs;
    if (due) node.lastDirectoryWrite = now;
    session.ws.serializeAttachment(session.attachment);
    return due;
  }

  /** Policy violation: an `error` frame with the reason, then close 1008 with the same reason. */
  reject(ws: WebSocket, reason: string, message: string): void {
    send(ws, { type: "error", code: reason, message });
    close(ws, CLOSE_POLICY, reason);
    this.forget(ws);
  }

  /** Drops a socket and its stored reports; returns the session it was, if any. */
  forget(ws: WebSocket): Session | undefined {
    const session = this.sessions.get(ws);
    if (!session) return undefined;
    this.sessions.delete(ws);
    this.ctx.storage.kv.delete(reportsKey(session.attachment));
    return session;
  }

  /** Sends a frame to every authenticated socket of `address` (any case), or of every node. */
  broadcast(frame: RelayFrame, address?: string): void {
    for (const s of this.authenticated()) {
      if (address === undefined || s.attachment.node.address.toLowerCase() === address.toLowerCase()) send(s.ws, frame);
    }
  }

  *authenticated(): Generator<NodeOf> {
    for (const s of this.sessions.values()) if (s.attachment.node) yield s as NodeOf;
  }

  /** Sockets that have not authenticated: their deadline passed (`due`) or is still ahead (`next`). */
  unauthenticated(now: number): { due: Session[]; next: number | null } {
    const due: Session[] = [];
    let next: number | null = null;
    for (const s of this.sessions.values()) {
      if (s.attachment.node) continue;
      if (s.attachment.authDeadline <= now) due.push(s);
      else next = next === null ? s.attachment.authDeadline : Math.min(next, s.attachment.authDeadline);
    }
    return { due, next };
  }

  /** The relay's in-memory view of this corridor's nodes (`GET /v1/nodes` merges them across corridors). */
  list(): NodeSession[] {
    return [...this.authenticated()].map(({ attachment: { node, advertised, connectedAt }, reports }) => ({
      address: node.address,
      name: node.name,
      version: node.version,
      region: node.region,
      signerType: node.signerType,
      solanaAddress: node.solanaAddress,
      corridor: advertised,
      connectedAt,
      lastHeartbeat: node.lastHeartbeat,
      state: node.state,
      degraded: node.degraded,
      inventory: reports.inventory,
      chains: reports.chains,
    }));
  }
}

/** Whether the node's last heartbeat is inside the staleness window. */
export const isFreshNode = (s: NodeOf, now: number) => isFresh(s.attachment.node.lastHeartbeat, now);
