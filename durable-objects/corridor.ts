import { DurableObject } from "cloudflare:workers";
import {
  AuctionHouse,
  type AuctionWrite,
  auctionChecksOf,
  auctionLogFields,
  auctionWrites,
  type QuoteAnswer,
  type QuoteOutcome,
  quoteAnswer,
  realClock,
} from "../src/auction";
import { adapterFor, type Corridor, corridorOfKey } from "../src/chains";
import { loadConfig } from "../src/config";
import type { GasFeeSource } from "../src/costs";
import { type CorridorCosts, corridorCostsOn, type GasFeeAsk } from "../src/costs";
import { WriteBehind } from "../src/db";
import { entryEnv } from "../src/entry";
import type { Env } from "../src/env";
import { type Refusal, RelayError } from "../src/errors";
import { type CorridorPrices, corridorPricesOn, type PriceAsk } from "../src/levels";
import { clientOfAddress } from "../src/limits";
import { log, withRequestId } from "../src/log";
import type { NodeSession } from "../src/nodes";
import { advertisedCorridor, type CorridorNodeEvents, CorridorNodes } from "../src/nodes";
import type { CorridorStatus } from "../src/ops";
import { CorridorControls } from "../src/ops";
import { BandSubscription } from "../src/oracle";
import { CLOSE_REASONS, close, PING_BYTES, PONG_BYTES } from "../src/protocol";
import { QuoteAdmission, type QuoteAsk, StoredProofBook } from "../src/quotes";
import { CorridorStanding, type Demotion } from "../src/resolvers";
import { Schedule } from "../src/schedule";
import type { Band, IndicativeLadder, IndicativePrice } from "../src/schemas";
import { CorridorStreams, errorJson, limitOrderTopic, type QuoteChange, quoteTopic, streamAsked } from "../src/streams";
import { oracleStub } from "../src/stubs";
import type { QuoteInput } from "../src/types";
import { auctionPortOf, nodeEventsOf, nodesHostOf, withLadders } from "./corridor-port";

/**
 * One per corridor, named by its corridor key (`idFromName`): holds the corridor's node sockets and checks
 * what they hold on chain (src/nodes/corridor-nodes.ts), runs their RFQ auctions (src/auction/house.ts) and
 * hosts the event streams of its quotes and limit orders (src/streams/corridor-streams.ts). Its timers are
 * rows of one schedule (src/schedule.ts): unauthenticated sockets closed, queued writes copied, keep-alives.
 */
export class CorridorDO extends DurableObject<Env> {
  private readonly corridor: Corridor;
  /** Whether a quote request may run now (docs/security.md, "Limits"), counted here on its one hop. */
  private readonly admission: QuoteAdmission;
  private readonly connected: CorridorNodes;
  private readonly house: AuctionHouse;
  /** The ladders its nodes stream, and `GET /v1/prices` answered from them (src/levels/corridor-prices.ts). */
  private readonly ladders: CorridorPrices;
  private readonly standing: CorridorStanding;
  /** The auctions' D1 writes, durable here first (docs/architecture.md, "Write-behind"). */
  private readonly writes: WriteBehind<AuctionWrite>;
  /** Open event streams of this corridor's quotes and limit orders (docs/api.md, "Event streams"). */
  private readonly streams: CorridorStreams;
  private readonly band: BandSubscription;
  private readonly costs: CorridorCosts;
  private readonly controls: CorridorControls;
  private readonly schedule: Schedule<"auth" | "drain" | "streams">;
  /** What its nodes' frames raise (built once, last), handed in with each message. */
  private readonly nodeEvents: CorridorNodeEvents;

  constructor(ctx: DurableObjectState, rawEnv: Env) {
    super(ctx, entryEnv(rawEnv));
    const env = this.env;
    // Protocol pings are answered by the runtime, so idle nodes never wake the object.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(PING_BYTES, PONG_BYTES));
    const config = loadConfig(env.RELAY_CONFIG);
    const corridor = corridorOfKey(config, ctx.id.name ?? "");
    if (!corridor) throw new Error(`not a corridor: ${ctx.id.name}`);
    this.corridor = corridor;
    const adapter = adapterFor(corridor.chain);
    const waitUntil = (p: Promise<unknown>) => ctx.waitUntil(p);
    this.admission = new QuoteAdmission({ ...config, proofs: new StoredProofBook(ctx.storage.sql) });
    this.controls = new CorridorControls(ctx.storage.kv, corridor.key);
    this.band = new BandSubscription({
      config,
      corridorKey: corridor.key,
      kv: ctx.storage.kv,
      subscribe: (key) => oracleStub(env).subscribe(key),
      waitUntil,
    });
    const band = this.band;
    const connected = new CorridorNodes(ctx, nodesHostOf(ctx, { config, corridor, db: env.DB, band }));
    this.connected = connected;
    const standing = new CorridorStanding({ db: env.DB, send: (address, frame) => connected.send(address, frame) });
    this.standing = standing;
    const writes = new WriteBehind(ctx.storage.sql, env.DB, auctionWrites, corridor.key);
    this.writes = writes;
    const costs = corridorCostsOn(corridor.chain, {
      db: env.DB,
      readRates: () => oracleStub(env).nativePrices(corridor.chain.chainId),
      waitUntil,
    });
    this.costs = costs;
    const streams = new CorridorStreams({
      db: env.DB,
      drain: () => writes.drain(),
      perCorridor: config.limits.streamsPerCorridor,
    });
    this.streams = streams;
    const jobs = {
      auth: { run: async () => connected.closeUnauthenticated(Date.now()) },
      drain: { run: () => writes.drainOrRetryAt() },
      streams: { run: () => streams.tick() },
    };
    this.schedule = new Schedule(ctx.storage, "corridor_schedule", jobs, (job, e) =>
      log.error("job_failed", { corridor: corridor.key, job, error: String(e) }),
    );
    const queue = (write: AuctionWrite) => this.queue(write);
    const port = auctionPortOf({ config, corridor, adapter, band, connected, standing, costs, queue, waitUntil });
    const checks = auctionChecksOf(port);
    const ladders = corridorPricesOn({ corridor, adapter, checks, standing, db: env.DB, waitUntil });
    this.ladders = ladders;
    this.house = new AuctionHouse(withLadders(port, ladders), realClock);
    this.nodeEvents = nodeEventsOf({ band, standing, house: this.house, ladders });
  }

  /**
   * A resolver's connect request, routed here by the Worker (the URL's token order is what the node
   * advertises), or a taker's event stream of a quote or limit order of this corridor.
   */
  override async fetch(request: Request): Promise<Response> {
    const ask = streamAsked(request);
    if (ask) {
      const { response, nextAt } = await this.streams.open(ask);
      await this.wakeStreamsBy(nextAt);
      return response;
    }
    const advertised = advertisedCorridor(request.url);
    if (!advertised) return new Response("not a corridor connect URL", { status: 400 });
    const opener = clientOfAddress(request.headers.get("CF-Connecting-IP"));
    const accepted = this.connected.accept(advertised, opener, Date.now());
    if ("kind" in accepted) return errorJson(RelayError.from(accepted));
    await this.schedule.runBy("auth", accepted.authDeadline);
    return new Response(null, { status: 101, webSocket: accepted.client });
  }

  /** A node's frame; what it raises (activity, a heartbeat, a ladder) is dispatched to the parts here. */
  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const reply = await this.connected.receive(ws, message, this.nodeEvents);
    if (reply) this.house.onReply(reply);
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    this.left(this.connected.gone(ws));
    // Complete the closing handshake, so the node sees its close acknowledged (1005/1006 cannot be sent).
    close(ws, code === 1005 || code === 1006 ? 1000 : code, reason);
  }

  override async webSocketError(ws: WebSocket): Promise<void> {
    this.left(this.connected.gone(ws));
  }

  /** A node's socket is gone: no auction waits for its reply, and its ladder is dropped. */
  private left(address: string | null): void {
    if (!address) return;
    this.house.onGone(address);
    this.ladders.forget(address);
  }

  override async alarm(): Promise<void> {
    // Whatever set the alarm, writes still queued are copied (docs/architecture.md, "Write-behind").
    if (this.writes.size() > 0) this.schedule.ensure({ job: "drain", everyMs: 0, nextAt: Date.now() });
    await this.schedule.runDue(() => Date.now());
  }

  /**
   * Copies this corridor's queued writes to D1 now, for a read or a submission that missed a quote
   * there (docs/architecture.md, "Write-behind"); rejects when D1 does.
   */
  async writeThrough(): Promise<void> {
    await this.writes.drain();
  }

  /**
   * Quotes that moved, in order (`announceQuotes`): with `fill`, a winner connected here hears how its fill
   * is going (`execution` frame); their open streams get what is new.
   */
  async quotesChanged(changes: QuoteChange[]): Promise<void> {
    for (const { quoteId, fill } of changes) {
      if (!fill) continue;
      this.connected.send(fill.resolver, { type: "execution", quoteId, status: fill.status, txHash: fill.txHash });
      this.controls.afterFill(quoteId, fill, Date.now());
    }
    await this.wakeStreamsBy(await this.streams.changed(...changes.map((c) => quoteTopic(c.quoteId))));
  }

  /** Limit order `limitOrderId` moved: its open streams get what is new. */
  async limitOrderChanged(limitOrderId: string): Promise<void> {
    await this.wakeStreamsBy(await this.streams.changed(limitOrderTopic(limitOrderId)));
  }

  /** Makes sure the streams' keep-alives and reads run by `at` (none is due while no stream is open). */
  private async wakeStreamsBy(at: number | null): Promise<void> {
    if (at !== null) await this.schedule.runBy("streams", at);
  }

  /** A price from the nodes' ladders in memory (docs/api.md, "Indicative prices"); 429 over the client's rate. */
  async prices(ask: PriceAsk, client: QuoteAsk): Promise<IndicativePrice | IndicativeLadder | Refusal> {
    return this.admission.price(client, Date.now()) ?? this.ladders.answer(ask, Date.now());
  }

  /** The authenticated nodes of this corridor, as the relay's in-memory view shows them. */
  async nodes(): Promise<NodeSession[]> {
    return this.connected.list();
  }

  /**
   * A taker's quote request, which the Worker validated: runs its auction once `ask`'s client and the taker
   * are within their limits (docs/security.md, "Limits"), stores the quote and answers with the body the
   * Worker sends on as it is and its log line's fields; refused while paused (docs/operations.md "Pausing").
   */
  async quote(input: QuoteInput, ask: QuoteAsk): Promise<QuoteAnswer> {
    return withRequestId(input.requestId, async () => {
      const outcome = this.controls.refusal() ?? (await this.admitted(input, ask));
      return quoteAnswer(outcome, auctionLogFields(this.corridor.key, outcome));
    });
  }

  /** A limit order's round for the keeper's limit job (docs/limit-orders.md): the outcome as data, logged at debug. */
  async requestQuote(input: QuoteInput): Promise<QuoteOutcome> {
    return withRequestId(input.requestId, async () => {
      const outcome = this.controls.refusal() ?? (await this.admitted(input, null));
      log.debug("auction", auctionLogFields(this.corridor.key, outcome));
      return outcome;
    });
  }

  private admitted(input: QuoteInput, ask: QuoteAsk | null): Promise<QuoteOutcome> {
    return this.admission.run(input.taker, ask, Date.now(), () => this.house.requestQuote(input));
  }

  /**
   * Today's gas fee of a fill in this corridor (a limit draft's `gasFeeNow`, docs/limit-orders.md,
   * "Amounts"): priced as a quote's would be now, after the reads that are due. A prepare counts against
   * its client's limit here (docs/security.md, "Limits").
   */
  async gasFeeNow(
    fill: GasFeeAsk,
    ask: QuoteAsk | null = null,
  ): Promise<{ token: string; amount: string; source: GasFeeSource } | Refusal> {
    const now = Date.now();
    const refused = ask && this.admission.prepare(ask, now);
    if (refused) return refused;
    await this.costs.keepFresh(now);
    const gas = await this.costs.charge(fill, now);
    return { token: gas.token, amount: gas.amount.toString(), source: gas.source };
  }

  /**
   * An operator pauses the corridor (docs/operations.md, "Pausing"): new quotes are refused, while the
   * sockets stay open and quotes already given can still be signed and settled. Kept in storage.
   */
  async pause(reason?: string): Promise<CorridorStatus> {
    this.controls.pause(reason, Date.now());
    return this.status();
  }

  async resume(): Promise<CorridorStatus> {
    this.controls.resume();
    return this.status();
  }

  /** Its pause, its fresh nodes and its write-behind backlog, for `GET /v1/corridors` and the health check. */
  async status(): Promise<CorridorStatus> {
    return this.controls.status(this.connected.fresh(Date.now()), this.writes.backlog());
  }

  /** The oracle's latest band for this corridor; sent on to every authenticated node. */
  async publishBand(band: Band): Promise<void> {
    this.band.publish(band);
    this.connected.broadcast({ type: "band", ...band });
  }

  /** The keeper struck and demoted a resolver: it hears why, and auctions read standing afresh. */
  async notifyDemotion(resolver: string, demotion: Demotion): Promise<void> {
    this.standing.demoted(resolver, demotion);
  }

  /** An admin de-registered the resolver: its socket here is closed (1008 `not_registered`). */
  async closeNode(address: string): Promise<void> {
    this.left(this.connected.close(address, CLOSE_REASONS.notRegistered, "the resolver is no longer registered"));
  }

  /** An admin changed a demotion: the next auction reads the resolvers' standing afresh. */
  async forgetDemotions(): Promise<void> {
    this.standing.forget();
  }

  /**
   * Queues a write (durable before this object's answer leaves), copies it to D1 behind the answer with
   * the writes queued in the next moment (`drainSoon`), and makes sure the alarm retries if that copy does
   * not finish.
   */
  private async queue(write: AuctionWrite): Promise<void> {
    const retryBy = this.writes.add(write);
    this.ctx.waitUntil(this.writes.drainSoon().catch(() => {}));
    await this.schedule.runBy("drain", retryBy);
  }
}
