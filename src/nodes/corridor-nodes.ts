import type { AuctionReply, LiveAuctions } from "../auction";
import type { Corridor } from "../chains";
import { adapterFor, inventoryReaderFor } from "../chains";
import type { RelayConfig } from "../config";
import { type Refusal, refuse } from "../errors";
import { type ClientId, perPeriod, TokenBuckets } from "../limits";
import type { LevelsFrame, RelayFrame } from "../protocol";
import type { AdvertisedCorridor, Band } from "../schemas";
import type { NodeFrameEvents } from "./frame-events";
import { type InventoryCheck, InventoryChecks, kvCheckStore } from "./inventory-checks";
import { isFresh, type NodeSession } from "./nodes";
import { NodeSessions } from "./sessions";

export interface CorridorNodesHost {
  config: RelayConfig;
  corridor: Corridor;
  db: D1Database;
  band(): Band | null;
}

/** What a node's frames tell the corridor object, handed in with each message (`receive`). */
export interface CorridorNodeEvents {
  auctions: LiveAuctions;
  /** A node authenticated or heartbeated: the corridor is in use. */
  onActive(now: number): void;
  /** A node heartbeated. */
  onHeartbeat(now: number): void;
  /** A node's price ladder: why it is refused, or null once it stands. */
  onLevels(node: NodeSession, frame: LevelsFrame): { code: string; message: string } | null;
}

/**
 * A corridor's connected nodes: their sessions (src/nodes/sessions.ts) and the on-chain checks of what
 * they claim to hold (src/nodes/inventory-checks.ts), wired to each other: a node is checked when it
 * authenticates and as it heartbeats, and shows degraded while its address has code or its claims are untrue.
 */
export class CorridorNodes {
  private readonly sessions: NodeSessions;
  private readonly checks: InventoryChecks;
  /** Sockets each client opened lately. */
  private readonly opened = new TokenBuckets();
  /** The sessions' events made for the last caller's (`frameEvents`). */
  private framed: { from: CorridorNodeEvents; to: NodeFrameEvents } | null = null;

  constructor(
    ctx: DurableObjectState,
    private readonly host: CorridorNodesHost,
  ) {
    const { config, corridor } = host;
    this.sessions = new NodeSessions(ctx, {
      corridorKey: corridor.key,
      requireRegistration: config.requireRegistration,
      rfqWindowMs: config.rfqWindowMs,
      db: host.db,
      band: () => host.band(),
      // The one late reach left here: the checks read the sessions' claims, and the sessions show the checks' flags.
      chainFlag: (address) => this.checks.flag(address),
    });
    this.checks = new InventoryChecks({
      reader: inventoryReaderFor(corridor.chain),
      tokens: corridor.tokens,
      sameToken: adapterFor(corridor.chain).sameAddress,
      claims: (address) => this.sessions.claims(address),
      store: kvCheckStore(ctx.storage.kv),
      waitUntil: (p) => ctx.waitUntil(p),
      onFlagChange: (address) => this.sessions.writeState(address),
      onCovered: (address) => this.sessions.listed(address),
    });
  }

  /**
   * A connect request from `opener`: the new socket's client end and by when it must authenticate, or
   * the limit it is over (docs/security.md, "Limits": sockets opened a minute and held, per client).
   */
  accept(
    corridor: AdvertisedCorridor,
    opener: ClientId,
    now: number,
  ): { client: WebSocket; authDeadline: number } | Refusal {
    const { limits } = this.host.config;
    if (this.sessions.heldBy(opener) >= limits.socketsPerClient) {
      return refuse(429, "rate_limited", `This client holds ${limits.socketsPerClient} sockets here already.`, {
        retryAfter: 60,
      });
    }
    const opened = this.opened.take(opener, now, perPeriod(limits.newSocketsPerMinute, 60));
    if (!opened.ok) {
      return refuse(429, "rate_limited", "Too many sockets opened from this client; wait.", {
        retryAfter: opened.retryAfter,
      });
    }
    return this.sessions.accept(corridor, opener);
  }

  /** A frame from a socket: handled here, or, when it concerns an auction, handed back as a reply. */
  receive(ws: WebSocket, message: string | ArrayBuffer, events: CorridorNodeEvents): Promise<AuctionReply | null> {
    return this.sessions.receive(ws, message, this.frameEvents(events));
  }

  /** The sessions' events: the caller's, with this corridor's inventory checks told too (made once per caller). */
  private frameEvents(events: CorridorNodeEvents): NodeFrameEvents {
    if (this.framed?.from === events) return this.framed.to;
    const { checks } = this;
    const to: NodeFrameEvents = {
      auctions: events.auctions,
      onActive: (now) => events.onActive(now),
      onAuthenticated: (node, now) => checks.restart(node, now),
      onHeartbeat: (node, now) => {
        checks.heard(node, now);
        events.onHeartbeat(now);
      },
      onLevels: (node, frame) => events.onLevels(node, frame),
    };
    this.framed = { from: events, to };
    return to;
  }

  /** A socket closed or failed: forgotten, with its node's inventory check; the node's address, for the caller to tell. */
  gone(ws: WebSocket): string | null {
    const address = this.sessions.forget(ws);
    if (address) this.checks.forget(address);
    return address;
  }

  /** An admin de-registered the resolver: its socket here is closed (1008 `not_registered`); the address if it was open. */
  close(address: string, reason: string, message: string): string | null {
    if (!this.sessions.closeNode(address, reason, message)) return null;
    this.checks.forget(address);
    return address;
  }

  /** Closes sockets past their auth deadline; when the next deadline falls, or null. */
  closeUnauthenticated(now: number): number | null {
    return this.sessions.closeUnauthenticated(now);
  }

  list(): NodeSession[] {
    return this.sessions.list();
  }

  /** How many nodes have a fresh heartbeat at `now`. */
  fresh(now: number): number {
    return this.sessions.list().filter((n) => isFresh(n.lastHeartbeat, now)).length;
  }

  send(address: string, frame: RelayFrame): void {
    this.sessions.sendTo(address, frame);
  }

  broadcast(frame: RelayFrame): void {
    this.sessions.broadcast(frame);
  }

  /** Whether the relay's last on-chain read of the node shows `atLeast` of `token`. */
  covers(address: string, token: string, atLeast: bigint): boolean {
    return this.checks.covers(address, token, atLeast);
  }

  /** The node's last completed on-chain read, or null before one completed. */
  inventoryCheck(address: string): InventoryCheck | null {
    return this.checks.check(address);
  }
}
