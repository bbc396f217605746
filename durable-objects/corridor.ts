import { DurableObject } from "cloudflare:workers";
import { AuctionHouse, type AuctionNode, type CorridorPort, type QuoteOutcome } from "../src/auction/house";
import type { QuoteInput } from "../src/auction/quote-input";
import { adapterFor } from "../src/chains";
import { loadConfig } from "../src/config/load";
import { findCorridor } from "../src/corridors";
import { demotedAddresses, isRegistered, recordNodeSeen, touchResolver } from "../src/db/resolvers";
import type { Env } from "../src/env";
import { verifyNodeAuth } from "../src/nodes/auth";
import { FrameLimiter } from "../src/nodes/frame-limiter";
import { type AdvertisedCorridor, isFresh, type NodeSession } from "../src/nodes/nodes";
import { oracleCorridor } from "../src/oracle/corridors";
import {
  AUTH_TIMEOUT_MS,
  type AuthFrame,
  CLOSE_POLICY,
  CLOSE_REASONS,
  type HeartbeatFrame,
  MAX_FRAME_BYTES,
  nodeFrame,
  type RelayFrame,
} from "../src/protocol/frames";
import type { BandValue } from "../src/schemas/quote";
import { oracleStub } from "../src/stubs";

/** Headers the Worker sets when it hands a connect request to the corridor. */
export const CORRIDOR_KEY_HEADER = "x-relay-corridor";
export const CORRIDOR_ADVERTISED_HEADER = "x-relay-advertised";

/** How often a node's heartbeats may refresh its directory entry in D1. */
const DIRECTORY_WRITE_EVERY_MS = 60_000;
/** How long the demoted set read from D1 serves auctions before it is read again. */
const DEMOTED_TTL_MS = 10_000;
/** Subscriptions to the oracle's band pushes lapse after two minutes; renewed while nodes heartbeat. */
const ORACLE_RENEW_MS = 60_000;

/** Per-socket state kept in the socket's attachment, so it survives hibernation (under 2 KiB). */
interface Attachment {
  corridorKey: string;
  advertised: AdvertisedCorridor;
  nonce: string;
  connectedAt: number;
  authDeadline: number;
  node: AuthedNode | null;
}

interface AuthedNode {
  address: string;
  /** Uncompressed secp256k1 key (0x04…), recovered from the auth signature. */
  publicKey: string;
  name: string;
  version: string;
  region: string | null;
  signerType: string | null;
  solanaAddress: string | null;
  lastHeartbeat: number | null;
  state: NodeSession["state"];
  degraded: string | null;
  lastDirectoryWrite: number;
}

/** Inventory and chain reports can outgrow an attachment; they live in the object's storage by socket. */
interface HeartbeatDetail {
  inventory: NodeSession["inventory"];
  chains: NodeSession["chains"];
}

interface Socket {
  attachment: Attachment;
  detail: HeartbeatDetail;
  limiter: FrameLimiter;
  storageKey: string;
}

const emptyDetail = (): HeartbeatDetail => ({ inventory: [], chains: [] });

/** One per corridor: holds the resolver WebSockets of the corridor and runs its RFQ auctions. */
export class CorridorDO extends DurableObject<Env> {
  private readonly sockets = new Map<WebSocket, Socket>();
  private band: BandValue | null = null;
  private readonly house = new AuctionHouse<WebSocket>();
  private demotedCache: { at: number; set: Promise<ReadonlySet<string>> } | null = null;
  private oracleSubscribedAt = 0;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // Protocol pings are answered by the runtime, so idle nodes never wake the object.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair('{"type":"ping"}', '{"type":"pong"}'));
    for (const ws of ctx.getWebSockets()) {
      const attachment = ws.deserializeAttachment() as Attachment | null;
      if (!attachment) continue;
      const storageKey = storageKeyOf(attachment);
      const detail = ctx.storage.kv.get<HeartbeatDetail>(storageKey) ?? emptyDetail();
      this.sockets.set(ws, { attachment, detail, limiter: new FrameLimiter(), storageKey });
    }
    this.band = ctx.storage.kv.get<BandValue>("band") ?? null;
  }

  /** A resolver's connect request, already routed to this corridor by the Worker. */
  override async fetch(request: Request): Promise<Response> {
    const corridorKey = request.headers.get(CORRIDOR_KEY_HEADER);
    const advertised = request.headers.get(CORRIDOR_ADVERTISED_HEADER);
    if (!corridorKey || !advertised) return new Response("corridor missing", { status: 400 });
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    this.ctx.acceptWebSocket(server);
    const now = Date.now();
    const attachment: Attachment = {
      corridorKey,
      advertised: JSON.parse(advertised) as AdvertisedCorridor,
      nonce: crypto.randomUUID(),
      connectedAt: now,
      authDeadline: now + AUTH_TIMEOUT_MS,
      node: null,
    };
    server.serializeAttachment(attachment);
    this.sockets.set(server, {
      attachment,
      detail: emptyDetail(),
      limiter: new FrameLimiter(),
      storageKey: storageKeyOf(attachment),
    });
    send(server, { type: "challenge", nonce: attachment.nonce, corridor: corridorKey });
    await this.armAlarm(attachment.authDeadline);
    return new Response(null, { status: 101, webSocket: client });
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const socket = this.sockets.get(ws);
    if (!socket) return;
    const size = typeof message === "string" ? message.length : message.byteLength;
    if (size > MAX_FRAME_BYTES)
      return this.reject(ws, CLOSE_REASONS.frameTooLarge, `frames are limited to ${MAX_FRAME_BYTES} bytes`);
    const parsed = parseFrame(message);
    // Replies to rfqs the node was asked are solicited: an auction rate above 50/s must not close its
    // resolvers. Everything else counts toward the flood limit.
    const solicited =
      parsed.ok &&
      (parsed.frame.type === "bid" || parsed.frame.type === "decline") &&
      socket.attachment.node !== null &&
      this.house.asked(parsed.frame.rfqId, socket.attachment.node.address);
    if (!solicited && !socket.limiter.allow(Date.now())) {
      return this.reject(ws, CLOSE_REASONS.rateLimited, "over 50 frames per second");
    }
    if (!parsed.ok) {
      // A malformed reply to a live rfq counts as a rejected bid; the node stays connected.
      if (socket.attachment.node && parsed.rfqId && this.house.isLive(parsed.rfqId)) {
        const port = this.port(socket.attachment.corridorKey);
        return this.house.onMalformed(port, auctionNode(ws, socket), parsed.rfqId, parsed.message);
      }
      return this.reject(ws, CLOSE_REASONS.badFrame, parsed.message);
    }
    const frame = parsed.frame;
    if (!socket.attachment.node) {
      if (frame.type !== "auth") return this.reject(ws, CLOSE_REASONS.badFrame, "the first frame must be auth");
      return this.authenticate(ws, socket, frame);
    }
    switch (frame.type) {
      case "auth":
        return send(ws, { type: "error", code: "already_authenticated", message: "this socket is authenticated" });
      case "heartbeat":
        return this.heartbeat(ws, socket, frame);
      case "bid":
      case "decline": {
        // Auctions run only on corridors the relay quotes; anything else names no live rfq.
        if (!this.house.isLive(frame.rfqId)) {
          return send(ws, { type: "error", code: "unknown_rfq", message: `no live rfq ${frame.rfqId}` });
        }
        const port = this.port(socket.attachment.corridorKey);
        if (frame.type === "bid") return this.house.onBid(port, auctionNode(ws, socket), frame);
        return this.house.onDecline(port, auctionNode(ws, socket), frame);
      }
      case "signed":
        return send(ws, { type: "error", code: "unknown_rfq", message: `no rfq ${frame.rfqId} awaits a signature` });
    }
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    this.forget(ws);
    // Complete the closing handshake, so the node sees its close acknowledged (1005/1006 cannot be sent).
    close(ws, code === 1005 || code === 1006 ? 1000 : code, reason);
  }

  override async webSocketError(ws: WebSocket): Promise<void> {
    this.forget(ws);
  }

  /** Closes sockets that did not authenticate in time; re-arms for the next deadline. */
  override async alarm(): Promise<void> {
    const now = Date.now();
    let next = Number.POSITIVE_INFINITY;
    for (const [ws, socket] of this.sockets) {
      if (socket.attachment.node) continue;
      if (socket.attachment.authDeadline <= now) this.reject(ws, CLOSE_REASONS.timeout, "no auth within 5 seconds");
      else next = Math.min(next, socket.attachment.authDeadline);
    }
    if (Number.isFinite(next)) await this.ctx.storage.setAlarm(next);
  }

  /** The authenticated nodes of this corridor, as the relay's in-memory view shows them. */
  async nodes(): Promise<NodeSession[]> {
    const out: NodeSession[] = [];
    for (const { attachment, detail } of this.sockets.values()) {
      const node = attachment.node;
      if (!node) continue;
      out.push({
        address: node.address,
        name: node.name,
        version: node.version,
        region: node.region,
        signerType: node.signerType,
        solanaAddress: node.solanaAddress,
        corridor: attachment.advertised,
        connectedAt: attachment.connectedAt,
        lastHeartbeat: node.lastHeartbeat,
        state: node.state,
        degraded: node.degraded,
        inventory: detail.inventory,
        chains: detail.chains,
      });
    }
    return out;
  }

  /** Runs an RFQ auction for a quote request the Worker validated; stores and returns the quote. */
  async requestQuote(input: QuoteInput): Promise<QuoteOutcome> {
    const config = loadConfig(this.env.RELAY_CONFIG);
    const corridor = findCorridor(config, input.chainId, input.sellToken, input.buyToken);
    if (!corridor) throw new Error(`not a corridor: ${input.chainId}/${input.sellToken}/${input.buyToken}`);
    return this.house.requestQuote(this.port(corridor.key), input);
  }

  /** Tells a quote's winning resolver how its fill is going (`execution` frame), if it is connected. */
  async notifyExecution(resolver: string, update: { quoteId: string; status: string; txHash: string | null }) {
    for (const [ws, socket] of this.sockets) {
      if (socket.attachment.node?.address.toLowerCase() === resolver.toLowerCase()) {
        send(ws, { type: "execution", ...update });
      }
    }
  }

  /** The oracle's latest band for this corridor; sent on to every authenticated node. */
  async publishBand(band: BandValue): Promise<void> {
    this.band = band;
    this.ctx.storage.kv.put("band", band);
    for (const [ws, socket] of this.sockets) if (socket.attachment.node) send(ws, { type: "band", ...band });
  }

  private async authenticate(ws: WebSocket, socket: Socket, frame: AuthFrame): Promise<void> {
    const { attachment } = socket;
    const result = await verifyNodeAuth(frame, attachment.corridorKey, attachment.nonce);
    if (!result.ok) return this.reject(ws, result.reason, "the auth signature does not match the address");
    const config = loadConfig(this.env.RELAY_CONFIG);
    if (config.requireRegistration && !(await isRegistered(this.env.DB, result.address))) {
      return this.reject(ws, CLOSE_REASONS.notRegistered, "this relay only accepts registered resolvers");
    }
    if (!this.sockets.has(ws)) return; // closed while we checked
    const now = Date.now();
    // One socket per node per corridor: a reconnecting node replaces its old socket.
    for (const [other, s] of this.sockets) {
      if (other !== ws && s.attachment.node?.address === result.address) {
        close(other, 1000, "replaced");
        this.forget(other);
      }
    }
    const identity = {
      address: result.address,
      name: frame.name,
      version: frame.version,
      region: frame.region ?? null,
      signerType: frame.signerType ?? null,
      solanaAddress: result.solanaAddress,
    };
    attachment.node = {
      ...identity,
      publicKey: result.publicKey,
      lastHeartbeat: null,
      state: "paused",
      degraded: null,
      lastDirectoryWrite: now,
    };
    ws.serializeAttachment(attachment);
    send(ws, {
      type: "welcome",
      address: result.address,
      corridor: attachment.corridorKey,
      rfqWindowMs: config.rfqWindowMs,
      band: this.band,
    });
    this.ctx.waitUntil(
      recordNodeSeen(this.env.DB, {
        ...identity,
        corridor: attachment.advertised,
        state: null,
        degraded: null,
        at: new Date(now).toISOString(),
      }),
    );
    this.subscribeToOracle(attachment.corridorKey, now);
  }

  private heartbeat(ws: WebSocket, socket: Socket, frame: HeartbeatFrame): void {
    const node = socket.attachment.node as AuthedNode;
    const now = Date.now();
    node.lastHeartbeat = now;
    node.state = frame.state;
    node.degraded = frame.state === "degraded" ? (frame.degraded ?? null) : null;
    socket.detail = {
      inventory: frame.inventory,
      chains: (frame.chains ?? []).map((c) => ({ chainId: c.chainId, state: c.state, degraded: c.degraded ?? null })),
    };
    this.ctx.storage.kv.put(socket.storageKey, socket.detail);
    this.subscribeToOracle(socket.attachment.corridorKey, now);
    if (now - node.lastDirectoryWrite >= DIRECTORY_WRITE_EVERY_MS) {
      node.lastDirectoryWrite = now;
      this.ctx.waitUntil(
        touchResolver(this.env.DB, node.address, node.state, node.degraded, new Date(now).toISOString()),
      );
    }
    ws.serializeAttachment(socket.attachment);
  }

  /** Policy violation: an `error` frame with the reason, then close 1008 with the same reason. */
  private reject(ws: WebSocket, reason: string, message: string): void {
    send(ws, { type: "error", code: reason, message });
    close(ws, CLOSE_POLICY, reason);
    this.forget(ws);
  }

  private port(corridorKey: string): CorridorPort<WebSocket> {
    const config = loadConfig(this.env.RELAY_CONFIG);
    const [chainId, a, b] = corridorKey.split(":") as [string, string, string];
    const corridor = findCorridor(config, Number(chainId), a, b);
    if (!corridor) throw new Error(`not a corridor: ${corridorKey}`);
    const adapter = adapterFor(corridor.chain);
    return {
      config,
      corridor,
      adapter,
      band: this.band,
      assetOf: (token) => {
        const mapped = oracleCorridor(config, corridor.key);
        if (!mapped) return null;
        if (adapter.sameAddress(token, mapped.baseToken)) return mapped.pair.base;
        return adapter.sameAddress(token, mapped.quoteToken) ? mapped.pair.quote : null;
      },
      nodes: () => {
        const out: AuctionNode<WebSocket>[] = [];
        for (const [ws, socket] of this.sockets) if (socket.attachment.node) out.push(auctionNode(ws, socket));
        return out;
      },
      send,
      demoted: () => this.demoted(),
      db: this.env.DB,
      waitUntil: (p) => this.ctx.waitUntil(p),
    };
  }

  /**
   * While this corridor has nodes, the oracle keeps computing its band and pushes each update here
   * (`publishBand`); the subscription lapses on its own once nodes stop heartbeating.
   */
  private subscribeToOracle(corridorKey: string, now: number): void {
    if (now - this.oracleSubscribedAt < ORACLE_RENEW_MS) return;
    const config = loadConfig(this.env.RELAY_CONFIG);
    if (!oracleCorridor(config, corridorKey)) return;
    this.oracleSubscribedAt = now;
    this.ctx.waitUntil(
      oracleStub(this.env)
        .subscribe(corridorKey)
        .then((band) => {
          if (band && (!this.band || band.at >= this.band.at)) {
            this.band = band;
            this.ctx.storage.kv.put("band", band);
          }
        })
        .catch((e: unknown) => {
          this.oracleSubscribedAt = 0;
          console.error(JSON.stringify({ corridor: corridorKey, error: `oracle subscribe failed: ${String(e)}` }));
        }),
    );
  }

  /** An admin changed a demotion: the next auction reads demotions afresh. */
  async forgetDemotions(): Promise<void> {
    this.demotedCache = null;
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

  private forget(ws: WebSocket): void {
    const socket = this.sockets.get(ws);
    if (!socket) return;
    this.sockets.delete(ws);
    this.ctx.storage.kv.delete(socket.storageKey);
  }

  private async armAlarm(at: number): Promise<void> {
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > at) await this.ctx.storage.setAlarm(at);
  }
}

function auctionNode(ws: WebSocket, socket: Socket): AuctionNode<WebSocket> {
  const node = socket.attachment.node as AuthedNode;
  return {
    socket: ws,
    address: node.address,
    publicKey: node.publicKey,
    solanaAddress: node.solanaAddress,
    name: node.name,
    fresh: isFresh(node.lastHeartbeat, Date.now()),
    state: node.state,
    inventory: socket.detail.inventory,
  };
}

const storageKeyOf = (attachment: Attachment) => `socket:${attachment.nonce}`;

type Parsed =
  | { ok: true; frame: ReturnType<typeof nodeFrame.parse> }
  | { ok: false; message: string; rfqId: string | null };

function parseFrame(message: string | ArrayBuffer): Parsed {
  if (typeof message !== "string") return { ok: false, message: "frames are JSON text", rfqId: null };
  let json: unknown;
  try {
    json = JSON.parse(message);
  } catch {
    return { ok: false, message: "frames are JSON text", rfqId: null };
  }
  const result = nodeFrame.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0];
    const { type, rfqId } = (typeof json === "object" && json !== null ? json : {}) as Record<string, unknown>;
    return {
      ok: false,
      message: `bad frame: ${issue ? `${issue.path.join(".") || "type"}: ${issue.message}` : "invalid"}`,
      rfqId: (type === "bid" || type === "decline") && typeof rfqId === "string" ? rfqId : null,
    };
  }
  return { ok: true, frame: result.data };
}

/** Sends a frame; a socket that is closing is skipped, never thrown from. */
export function send(ws: WebSocket, frame: RelayFrame): void {
  try {
    ws.send(JSON.stringify(frame));
  } catch {
    // The node is gone; its close event cleans up.
  }
}

function close(ws: WebSocket, code: number, reason: string): void {
  try {
    ws.close(code, reason);
  } catch {
    // already closed
  }
}
