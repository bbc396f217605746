import { DurableObject } from "cloudflare:workers";
import type { CorridorPort } from "../src/auction/corridor-port";
import { AuctionHouse } from "../src/auction/house";
import { auctionLogFields } from "../src/auction/outcome-log";
import type { QuoteOutcome } from "../src/auction/quote-outcome";
import { type AuctionWrite, auctionStore, auctionWriteStatements } from "../src/auction/store";
import { adapterFor, inventoryReaderFor } from "../src/chains";
import { loadConfig } from "../src/config/load";
import type { RelayConfig } from "../src/config/schema";
import { type Corridor, corridorOfKey } from "../src/corridors";
import { withD1Latency } from "../src/db/simulated-latency";
import type { Demotion } from "../src/db/strikes";
import { WriteBehind } from "../src/db/write-behind";
import type { Env } from "../src/env";
import { log, withRequestId } from "../src/log";
import { InventoryChecks, kvCheckStore } from "../src/nodes/inventory-checks";
import { isFresh, type NodeSession } from "../src/nodes/nodes";
import { advertisedCorridor, NodeSessions } from "../src/nodes/sessions";
import type { CorridorStatus } from "../src/ops/corridor-state";
import { corridorPaused, PauseSwitch } from "../src/ops/pause";
import { bandAssetOf } from "../src/oracle/band-corridors";
import { BandSubscription } from "../src/oracle/band-subscription";
import { close } from "../src/protocol/codec";
import { CLOSE_REASONS } from "../src/protocol/frames";
import { readStanding, StandingCache } from "../src/resolvers/standing";
import { strike } from "../src/resolvers/strikes";
import { type Job, Schedule } from "../src/schedule";
import type { BandValue } from "../src/schemas/quote";
import { StreamHub } from "../src/streams/hub";
import { streamResponse } from "../src/streams/response";
import { limitOrderTopic, quoteTopic, readSubject, streamAsked, subjectOf } from "../src/streams/subjects";
import { oracleStub } from "../src/stubs";
import type { QuoteInput } from "../src/types";

/**
 * The corridor's timers, rows of one schedule (src/schedule.ts): closing sockets that did not
 * authenticate in time, copying queued writes to D1 (and retrying), and the event streams' keep-alives
 * and reads.
 */
type CorridorJob = "auth" | "drain" | "streams";

/**
 * One per corridor, named by its corridor key (`idFromName`): holds the corridor's node sockets
 * (src/nodes/sessions.ts), checks their inventory on chain (src/nodes/inventory-checks.ts), runs
 * their RFQ auctions (src/auction/house.ts), and hosts the event streams of its quotes and limit orders
 * (src/streams/hub.ts).
 */
export class CorridorDO extends DurableObject<Env> {
  private readonly config: RelayConfig;
  private readonly corridor: Corridor;
  private readonly sessions: NodeSessions;
  /** Public for tests (`runInDurableObject`), which wait for a node's first read. */
  readonly checks: InventoryChecks;
  private readonly house: AuctionHouse;
  private readonly standing: StandingCache;
  /** The auctions' D1 writes, durable here first (docs/architecture.md, "Write-behind"). */
  private readonly writes: WriteBehind<AuctionWrite>;
  /** Open event streams of this corridor's quotes and limit orders (docs/api.md, "Event streams"). */
  readonly streams: StreamHub;
  private readonly band: BandSubscription;
  private readonly pauses: PauseSwitch;
  private readonly schedule: Schedule<CorridorJob>;
  private readonly jobs: Record<CorridorJob, Job>;

  constructor(ctx: DurableObjectState, rawEnv: Env) {
    super(ctx, withD1Latency(rawEnv));
    const env = this.env;
    // Protocol pings are answered by the runtime, so idle nodes never wake the object.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair('{"type":"ping"}', '{"type":"pong"}'));
    this.config = loadConfig(env.RELAY_CONFIG);
    const corridor = corridorOfKey(this.config, ctx.id.name ?? "");
    if (!corridor) throw new Error(`not a corridor: ${ctx.id.name}`);
    this.corridor = corridor;
    this.pauses = new PauseSwitch(ctx.storage.kv);
    this.band = new BandSubscription({
      config: this.config,
      corridorKey: corridor.key,
      kv: ctx.storage.kv,
      subscribe: (key) => oracleStub(env).subscribe(key),
      waitUntil: (p) => ctx.waitUntil(p),
    });
    this.standing = new StandingCache((now) => readStanding(env.DB, now));
    this.sessions = new NodeSessions(ctx, {
      corridorKey: corridor.key,
      requireRegistration: this.config.requireRegistration,
      rfqWindowMs: this.config.rfqWindowMs,
      db: env.DB,
      band: () => this.band.current(),
      onActive: (now) => {
        this.band.renew(now);
        // Read ahead of the next auction, so none waits for D1 (src/resolvers/standing.ts).
        void this.standing.get(now);
      },
      onAuthenticated: (node, now) => this.checks.restart(node, now),
      onHeartbeat: (node, now) => {
        this.checks.heard(node, now);
        void this.house.keepFresh(now);
      },
      inventoryMismatch: (address) => this.checks.mismatched(address),
    });
    this.checks = new InventoryChecks({
      reader: inventoryReaderFor(corridor.chain),
      tokens: corridor.tokens,
      sameToken: adapterFor(corridor.chain).sameAddress,
      claims: (address) => this.sessions.claims(address),
      store: kvCheckStore(ctx.storage.kv),
      waitUntil: (p) => ctx.waitUntil(p),
      onMismatchChange: (address) => this.sessions.writeState(address),
    });
    this.writes = new WriteBehind(ctx.storage.sql, env.DB, auctionWriteStatements, corridor.key);
    this.house = new AuctionHouse(this.port());
    this.streams = new StreamHub({ read: (topic) => this.readTopic(topic), now: () => Date.now() });
    this.schedule = new Schedule(ctx.storage, "corridor_schedule", (job, e) =>
      log.error("job_failed", { corridor: corridor.key, job, error: String(e) }),
    );
    this.jobs = {
      auth: { run: async () => this.sessions.closeUnauthenticated(Date.now()) },
      drain: { run: () => this.writes.drainOrRetryAt() },
      streams: {
        run: async () => {
          await this.streams.tick();
          return this.streams.nextAt();
        },
      },
    };
  }

  /**
   * A resolver's connect request, routed here by the Worker (the URL's token order is what the node
   * advertises), or a taker's event stream of a quote or limit order of this corridor.
   */
  override async fetch(request: Request): Promise<Response> {
    const ask = streamAsked(request);
    if (ask) {
      const response = streamResponse(await this.streams.open(ask.topic, ask.client, ask.last));
      await this.armStreams();
      return response;
    }
    const advertised = advertisedCorridor(request.url);
    if (!advertised) return new Response("not a corridor connect URL", { status: 400 });
    const { client, authDeadline } = this.sessions.accept(advertised);
    await this.runBy("auth", authDeadline);
    return new Response(null, { status: 101, webSocket: client });
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const reply = await this.sessions.receive(ws, message, this.house);
    if (!reply) return;
    if ("malformed" in reply) return this.house.onMalformed(reply.node, reply.malformed.rfqId, reply.malformed.message);
    const { node, frame } = reply;
    if (frame.type === "bid") return this.house.onBid(node, frame);
    if (frame.type === "decline") return this.house.onDecline(node, frame);
    return this.house.onSigned(node, frame);
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    this.gone(ws);
    // Complete the closing handshake, so the node sees its close acknowledged (1005/1006 cannot be sent).
    close(ws, code === 1005 || code === 1006 ? 1000 : code, reason);
  }

  override async webSocketError(ws: WebSocket): Promise<void> {
    this.gone(ws);
  }

  /** A socket closed or failed: forgotten, and no auction waits for its node's reply any longer. */
  private gone(ws: WebSocket): void {
    const address = this.sessions.forget(ws);
    if (address) this.left(address);
  }

  /** A node's socket is gone: no auction waits for it, and its inventory check is dropped. */
  private left(address: string): void {
    this.house.onGone(address);
    this.checks.forget(address);
  }

  override async alarm(): Promise<void> {
    // Whatever set the alarm, writes still queued are copied (docs/architecture.md, "Write-behind").
    if (this.writes.size() > 0) this.schedule.ensure({ job: "drain", everyMs: 0, nextAt: Date.now() });
    await this.schedule.runDue(this.jobs, () => Date.now());
  }

  /**
   * Copies this corridor's queued writes to D1 now, for a read or a submission that missed a quote
   * there (docs/architecture.md, "Write-behind"); rejects when D1 does.
   */
  async writeThrough(): Promise<void> {
    await this.writes.drain();
  }

  /**
   * Quote `quoteId` moved (a settlement step, a cancel): with `fill`, its winning resolver hears how the fill
   * is going if connected here (`execution` frame); its open streams get what is new. One call per step.
   */
  async quoteChanged(quoteId: string, fill?: { resolver: string; status: string; txHash: string | null }) {
    if (fill)
      this.sessions.sendTo(fill.resolver, { type: "execution", quoteId, status: fill.status, txHash: fill.txHash });
    await this.streams.changed(quoteTopic(quoteId));
    await this.armStreams();
  }

  /** Limit order `limitOrderId` moved: its open streams get what is new. */
  async limitOrderChanged(limitOrderId: string): Promise<void> {
    await this.streams.changed(limitOrderTopic(limitOrderId));
    await this.armStreams();
  }

  /** The authenticated nodes of this corridor, as the relay's in-memory view shows them. */
  async nodes(): Promise<NodeSession[]> {
    return this.sessions.list();
  }

  /**
   * Runs an RFQ auction for a quote request the Worker validated; stores and returns the quote. A paused
   * corridor refuses it (503 `not_leader`, docs/operations.md "Pausing").
   */
  async requestQuote(input: QuoteInput): Promise<QuoteOutcome> {
    return withRequestId(input.requestId, async () => {
      const paused = this.pauses.current();
      const outcome = paused ? corridorPaused(paused) : await this.house.requestQuote(input);
      // A limit order's rounds run every 5 s each: their lines are debug.
      (input.limit ? log.debug : log.info)("auction", auctionLogFields(this.corridor.key, outcome));
      return outcome;
    });
  }

  /**
   * An operator pauses the corridor (docs/operations.md, "Pausing"): new quotes are refused, while the
   * sockets stay open and quotes already given can still be signed and settled. Kept in storage.
   */
  async pause(reason?: string): Promise<CorridorStatus> {
    this.pauses.pause(reason, Date.now());
    log.warn("corridor_paused", { corridor: this.corridor.key, reason: reason ?? null });
    return this.status();
  }

  async resume(): Promise<CorridorStatus> {
    this.pauses.resume();
    log.warn("corridor_resumed", { corridor: this.corridor.key });
    return this.status();
  }

  /** Its pause, its fresh nodes and its write-behind backlog, for `GET /v1/corridors` and the health check. */
  async status(): Promise<CorridorStatus> {
    const now = Date.now();
    const nodes = this.sessions.list().filter((n) => isFresh(n.lastHeartbeat, now)).length;
    return { paused: this.pauses.current(), nodes, outbox: this.writes.backlog() };
  }

  /** The oracle's latest band for this corridor; sent on to every authenticated node. */
  async publishBand(band: BandValue): Promise<void> {
    this.band.publish(band);
    this.sessions.broadcast({ type: "band", ...band });
  }

  /** A strike demoted a resolver: it hears why (`error strike`, then `demoted`), and auctions read standing afresh. */
  async notifyDemotion(resolver: string, demotion: Demotion): Promise<void> {
    this.standing.forget();
    this.sessions.sendTo(resolver, { type: "error", code: "strike", message: demotion.reason });
    this.sessions.sendTo(resolver, { type: "demoted", until: demotion.demotedUntil, reason: demotion.reason });
  }

  /** An admin de-registered the resolver: its socket here is closed (1008 `not_registered`). */
  async closeNode(address: string): Promise<void> {
    if (this.sessions.closeNode(address, CLOSE_REASONS.notRegistered, "the resolver is no longer registered")) {
      this.left(address);
    }
  }

  /** An admin changed a demotion: the next auction reads the resolvers' standing afresh. */
  async forgetDemotions(): Promise<void> {
    this.standing.forget();
  }

  private port(): CorridorPort {
    const { config, corridor } = this;
    const adapter = adapterFor(corridor.chain);
    return {
      config,
      corridor,
      adapter,
      band: () => this.band.current(),
      assetOf: (token) => bandAssetOf(config, corridor.key, token, adapter.sameAddress),
      nodes: () => this.sessions.list(),
      send: (address, frame) => this.sessions.sendTo(address, frame),
      chainCovers: (address, token, atLeast) => this.checks.covers(address, token, atLeast),
      standing: () => this.standing.get(),
      store: auctionStore(async (write) => this.queue(write)),
      strike: async (resolver, event, why) => {
        await strike(this.env.DB, { resolver, event, why, now: Date.now() }, (d) => this.notifyDemotion(resolver, d));
      },
      waitUntil: (p) => this.ctx.waitUntil(p),
    };
  }

  /**
   * Queues a write (durable before this object's answer leaves), starts copying it to D1 behind the
   * answer, and makes sure the alarm retries if that copy does not finish.
   */
  private async queue(write: AuctionWrite): Promise<void> {
    const retryBy = this.writes.add(write);
    this.ctx.waitUntil(this.writes.drain().catch(() => {}));
    await this.runBy("drain", retryBy);
  }

  /**
   * Reads a stream's subject from D1; a quote D1 does not have yet may still be in this corridor's
   * write-behind queue, so the queue is copied first and the quote read again.
   */
  private async readTopic(topic: string) {
    const subject = subjectOf(topic);
    if (!subject) return null;
    const read = await readSubject(this.env.DB, subject, Date.now());
    if (read || subject.kind !== "quote") return read;
    await this.writes.drain();
    return readSubject(this.env.DB, subject, Date.now());
  }

  /** Makes sure the alarm runs the streams' next keep-alive or read. */
  private async armStreams(): Promise<void> {
    const next = this.streams.nextAt();
    if (next !== null) await this.runBy("streams", next);
  }

  /** Makes sure `job` runs by `at`. */
  private runBy(job: CorridorJob, at: number): Promise<void> {
    return this.schedule.soon({ job, everyMs: 0, nextAt: at });
  }
}
