import { DurableObject } from "cloudflare:workers";
import { AuctionHouse, type AuctionNode, type CorridorPort, type QuoteOutcome } from "../src/auction/house";
import type { QuoteInput } from "../src/auction/quote-input";
import { adapterFor } from "../src/chains";
import { loadConfig } from "../src/config/load";
import { type Corridor, corridorOfKey } from "../src/corridors";
import { d1AuctionStore } from "../src/db/auction-store";
import { demotedAddresses, isRegistered, recordNodeSeen, touchResolver } from "../src/db/resolvers";
import type { Env } from "../src/env";
import { verifyNodeAuth } from "../src/nodes/auth";
import type { AdvertisedCorridor, NodeSession } from "../src/nodes/nodes";
import { isFreshNode, type NodeOf, NodeSessions } from "../src/nodes/sessions";
import { oracleCorridor } from "../src/oracle/corridors";
import { decodeNodeFrame, send } from "../src/protocol/codec";
import { AUTH_TIMEOUT_MS, type AuthFrame, CLOSE_REASONS } from "../src/protocol/frames";
import type { BandValue } from "../src/schemas/quote";
import { oracleStub } from "../src/stubs";

/** How often a node's heartbeats may refresh its directory entry in D1. */
const DIRECTORY_WRITE_EVERY_MS = 60_000;
/** How long the demoted set read from D1 serves auctions before it is read again. */
const DEMOTED_TTL_MS = 10_000;
/** Subscriptions to the oracle's band pushes lapse after two minutes; renewed while nodes heartbeat. */
const ORACLE_RENEW_MS = 60_000;

/**
 * One per corridor, named by its corridor key (docs/architecture.md): holds the corridor's resolver
 * sockets (src/nodes/sessions.ts) and runs its RFQ auctions (src/auction/house.ts).
 */
export class CorridorDO extends DurableObject<Env> {
  private readonly sessions: NodeSessions;
  private readonly corridor: Corridor | null;
  private readonly house: AuctionHouse<WebSocket> | null;
  private band: BandValue | null;
  private demotedCache: { at: number; set: Promise<ReadonlySet<string>> } | null = null;
  private oracleSubscribedAt = 0;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // Protocol pings are answered by the runtime, so idle nodes never wake the object.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair('{"type":"ping"}', '{"type":"pong"}'));
    this.sessions = new NodeSessions(ctx);
    this.band = ctx.storage.kv.get<BandValue>("band") ?? null;
    this.corridor = ctx.id.name ? corridorOfKey(loadConfig(env.RELAY_CONFIG), ctx.id.name) : null;
    this.house = this.corridor ? new AuctionHouse(this.port(this.corridor)) : null;
  }

  /** A resolver's connect request, routed here by the Worker (`/v1/corridors/{chainId}/{a}/{b}/connect`). */
  override async fetch(request: Request): Promise<Response> {
    const advertised = advertisedOf(new URL(request.url));
    if (!this.corridor || !advertised) return new Response("not a corridor", { status: 404 });
    const pair = new WebSocketPair();
    const session = this.sessions.accept(pair[1], advertised, this.corridor.key, AUTH_TIMEOUT_MS, Date.now());
    await this.armAlarm(session.attachment.authDeadline);
    return new Response(null, { status: 101, webSocket: pair[0] });
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const session = this.sessions.get(ws);
    if (!session || !this.house) return;
    const decoded = decodeNodeFrame(message);
    if (!decoded.ok && decoded.reason === "frame_too_large") {
      return this.sessions.reject(ws, CLOSE_REASONS.frameTooLarge, decoded.message);
    }
    const node = session.attachment.node ? (session as NodeOf) : null;
    // A node's first reply to an rfq it was asked is solicited: an auction rate above 50/s must not close
    // its resolvers. Everything else, duplicate and unknown replies included, counts toward the limit.
    const rfqId = decoded.ok ? ("rfqId" in decoded.frame ? decoded.frame.rfqId : null) : decoded.rfqId;
    const solicited = node !== null && rfqId !== null && this.house.awaits(rfqId, node.attachment.node.address);
    if (!solicited && !session.limiter.allow(Date.now())) {
      return this.sessions.reject(ws, CLOSE_REASONS.rateLimited, "over 50 frames per second");
    }
    if (!decoded.ok) {
      // A malformed reply to a live rfq counts as a rejected bid; the node stays connected.
      if (node && rfqId && this.house.isLive(rfqId))
        return this.house.onMalformed(auctionNode(node), rfqId, decoded.message);
      return this.sessions.reject(ws, CLOSE_REASONS.badFrame, decoded.message);
    }
    const frame = decoded.frame;
    if (!node) {
      if (frame.type !== "auth")
        return this.sessions.reject(ws, CLOSE_REASONS.badFrame, "the first frame must be auth");
      return this.authenticate(ws, frame);
    }
    switch (frame.type) {
      case "auth":
        return send(ws, { type: "error", code: "already_authenticated", message: "this socket is authenticated" });
      case "heartbeat":
        if (this.sessions.heartbeat(node, frame, Date.now(), DIRECTORY_WRITE_EVERY_MS)) {
          const { address, state, degraded } = node.attachment.node;
          this.ctx.waitUntil(touchResolver(this.env.DB, address, state, degraded, new Date().toISOString()));
        }
        return this.subscribeToOracle(Date.now());
      case "bid":
        return this.house.onBid(auctionNode(node), frame);
      case "decline":
        return this.house.onDecline(auctionNode(node), frame);
      case "signed":
        return this.house.onSigned(auctionNode(node), frame);
    }
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    this.gone(ws);
    // Complete the closing handshake, so the node sees its close acknowledged (1005/1006 cannot be sent).
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, reason);
    } catch {
      // already closed
    }
  }

  override async webSocketError(ws: WebSocket): Promise<void> {
    this.gone(ws);
  }

  /** Closes sockets that did not authenticate in time; re-arms for the next deadline. */
  override async alarm(): Promise<void> {
    const { due, next } = this.sessions.unauthenticated(Date.now());
    for (const s of due) this.sessions.reject(s.ws, CLOSE_REASONS.timeout, "no auth within 5 seconds");
    if (next !== null) await this.ctx.storage.setAlarm(next);
  }

  /** The authenticated nodes of this corridor, as the relay's in-memory view shows them. */
  async nodes(): Promise<NodeSession[]> {
    return this.sessions.list();
  }

  /** Runs an RFQ auction for a quote request the Worker validated; stores and returns the quote. */
  async requestQuote(input: QuoteInput): Promise<QuoteOutcome> {
    if (!this.house) throw new Error(`${this.ctx.id.name ?? "this object"} is not a corridor the relay serves`);
    return this.house.requestQuote(input);
  }

  /** Tells a quote's winning resolver how its fill is going (`execution` frame), if it is connected. */
  async notifyExecution(resolver: string, update: { quoteId: string; status: string; txHash: string | null }) {
    this.sessions.broadcast({ type: "execution", ...update }, resolver);
  }

  /** The oracle's latest band for this corridor; sent on to every authenticated node. */
  async publishBand(band: BandValue): Promise<void> {
    this.band = band;
    this.ctx.storage.kv.put("band", band);
    this.sessions.broadcast({ type: "band", ...band });
  }

  /** An admin changed a demotion: the next auction reads demotions afresh. */
  async forgetDemotions(): Promise<void> {
    this.demotedCache = null;
  }

  private async authenticate(ws: WebSocket, frame: AuthFrame): Promise<void> {
    const corridor = this.corridor as Corridor;
    const session = this.sessions.get(ws);
    if (!session) return;
    const result = await verifyNodeAuth(frame, corridor.key, session.attachment.nonce);
    if (!result.ok) return this.sessions.reject(ws, result.reason, "the auth signature does not match the address");
    const config = loadConfig(this.env.RELAY_CONFIG);
    if (config.requireRegistration && !(await isRegistered(this.env.DB, result.address))) {
      return this.sessions.reject(ws, CLOSE_REASONS.notRegistered, "this relay only accepts registered resolvers");
    }
    if (!this.sessions.get(ws)) return; // closed while we checked
    const now = Date.now();
    const identity = {
      address: result.address,
      publicKey: result.publicKey,
      solanaAddress: result.solanaAddress,
      name: frame.name,
      version: frame.version,
      region: frame.region ?? null,
      signerType: frame.signerType ?? null,
    };
    this.sessions.authenticate(session, identity, now);
    send(ws, {
      type: "welcome",
      address: result.address,
      corridor: corridor.key,
      rfqWindowMs: config.rfqWindowMs,
      band: this.band,
    });
    const { publicKey: _key, ...seen } = identity;
    this.ctx.waitUntil(
      recordNodeSeen(this.env.DB, {
        ...seen,
        corridor: session.attachment.advertised,
        state: null,
        degraded: null,
        at: new Date(now).toISOString(),
      }),
    );
    this.subscribeToOracle(now);
  }

  /** A socket closed or failed: forgotten, and no reply is awaited from its node. */
  private gone(ws: WebSocket): void {
    const node = this.sessions.forget(ws)?.attachment.node;
    if (node) this.house?.onGone(node.address);
  }

  /** The auction's port, built once: the corridor, its adapter, and this object's sockets, band and store. */
  private port(corridor: Corridor): CorridorPort<WebSocket> {
    const config = loadConfig(this.env.RELAY_CONFIG);
    const adapter = adapterFor(corridor.chain);
    const mapped = oracleCorridor(config, corridor.key);
    return {
      config,
      corridor,
      adapter,
      band: () => this.band,
      assetOf: (token) => {
        if (!mapped) return null;
        if (adapter.sameAddress(token, mapped.baseToken)) return mapped.pair.base;
        return adapter.sameAddress(token, mapped.quoteToken) ? mapped.pair.quote : null;
      },
      nodes: () => [...this.sessions.authenticated()].map(auctionNode),
      send,
      demoted: () => this.demoted(),
      store: d1AuctionStore(this.env.DB),
      waitUntil: (p) => this.ctx.waitUntil(p),
    };
  }

  /**
   * While this corridor has nodes, the oracle keeps computing its band and pushes each update here
   * (`publishBand`); the subscription lapses on its own once nodes stop heartbeating.
   */
  private subscribeToOracle(now: number): void {
    const corridor = this.corridor;
    if (!corridor || now - this.oracleSubscribedAt < ORACLE_RENEW_MS) return;
    if (!oracleCorridor(loadConfig(this.env.RELAY_CONFIG), corridor.key)) return;
    this.oracleSubscribedAt = now;
    this.ctx.waitUntil(
      oracleStub(this.env)
        .subscribe(corridor.key)
        .then((band) => {
          if (band && (!this.band || band.at >= this.band.at)) {
            this.band = band;
            this.ctx.storage.kv.put("band", band);
          }
        })
        .catch((e: unknown) => {
          this.oracleSubscribedAt = 0;
          console.error(JSON.stringify({ corridor: corridor.key, error: `oracle subscribe failed: ${String(e)}` }));
        }),
    );
  }

  /** Demotions change rarely; auctions read them from a short-lived cache instead of D1 each time. */
  private demoted(): Promise<ReadonlySet<string>> {
    const now = Date.now();
    if (!this.demotedCache || now - this.demotedCache.at > DEMOTED_TTL_MS) {
      const set = demotedAddresses(this.env.DB, new Date(now).toISOString()).catch(() => new Set<string>());
      this.demotedCache = { at: now, set };
    }
    return this.demotedCache.set;
  }

  private async armAlarm(at: number): Promise<void> {
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > at) await this.ctx.storage.setAlarm(at);
  }
}

function auctionNode(session: NodeOf): AuctionNode<WebSocket> {
  const { node } = session.attachment;
  return {
    socket: session.ws,
    address: node.address,
    publicKey: node.publicKey,
    solanaAddress: node.solanaAddress,
    name: node.name,
    fresh: isFreshNode(session, Date.now()),
    state: node.state,
    inventory: session.reports.inventory,
  };
}

/** The corridor as the node's connect URL names it: its token order, which `GET /v1/nodes` shows. */
function advertisedOf(url: URL): AdvertisedCorridor | null {
  const match = /\/v1\/corridors\/(\d+)\/([^/]+)\/([^/]+)\/connect\/?$/.exec(url.pathname);
  if (!match) return null;
  const [, chainId, baseToken, quoteToken] = match;
  return {
    chainId: Number(chainId),
    baseToken: decodeURIComponent(baseToken ?? ""),
    quoteToken: decodeURIComponent(quoteToken ?? ""),
  };
}
