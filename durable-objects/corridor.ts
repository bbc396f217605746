import { DurableObject } from "cloudflare:workers";
import { type QuoteAnswer, type QuoteOutcome, realClock } from "../src/auction";
import type { GasFeeAsk } from "../src/costs";
import { entryEnv } from "../src/entry";
import type { Env } from "../src/env";
import type { Refusal } from "../src/errors";
import type { PriceAsk } from "../src/levels";
import { type NodeSession, routeNodeEvent } from "../src/nodes";
import type { CorridorStatus } from "../src/ops";
import { acknowledgeClose, CLOSE_REASONS, PING_BYTES, PONG_BYTES } from "../src/protocol";
import type { GasFeeNow, QuoteAsk } from "../src/quotes";
import type { Demotion } from "../src/resolvers";
import type { Band, IndicativeLadder, IndicativePrice } from "../src/schemas";
import { type QuoteChange, streamAsked } from "../src/streams";
import type { QuoteInput } from "../src/types";
import { type CorridorParts, corridorParts } from "./corridor-parts";

/**
 * One per corridor, named by its corridor key (`idFromName`): its node sockets, their RFQ auctions, the
 * event streams of its quotes and limit orders. Its parts are built once, in one order (corridor-parts.ts);
 * each method hands its request to the part that owns it.
 */
export class CorridorDO extends DurableObject<Env> {
  private readonly clock = realClock;
  private readonly p: CorridorParts;

  constructor(ctx: DurableObjectState, rawEnv: Env) {
    super(ctx, entryEnv(rawEnv));
    // Protocol pings are answered by the runtime, so idle nodes never wake the object.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(PING_BYTES, PONG_BYTES));
    this.p = corridorParts(ctx, this.env, this.clock);
  }

  /** An event stream's request (`streams`), or a resolver's connect request (`door`). */
  override fetch(request: Request): Promise<Response> {
    const ask = streamAsked(request);
    return ask ? this.p.streams.open(ask) : this.p.door.connect(request);
  }

  /** A node's frame; what it raises is routed to the part that owns it (`frames`). */
  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const event = await this.p.nodes.receive(ws, message);
    if (event) routeNodeEvent(this.p.frames, event);
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    this.left(this.p.nodes.gone(ws));
    acknowledgeClose(ws, code, reason);
  }

  override async webSocketError(ws: WebSocket): Promise<void> {
    this.left(this.p.nodes.gone(ws));
  }

  /** A node's socket is gone: no auction waits for its reply, and its ladder is dropped. */
  private left(address: string | null): void {
    if (address) this.p.house.onGone(address);
    if (address) this.p.ladders.forget(address);
  }

  override async alarm(): Promise<void> {
    const { writes, schedule } = this.p;
    // Whatever set the alarm, writes still queued are copied (docs/architecture.md, "Write-behind").
    if (writes.size() > 0) schedule.ensure({ job: "drain", everyMs: 0, nextAt: this.clock.now() });
    await schedule.runDue(() => this.clock.now());
  }

  /** Copies queued writes to D1 now, for a read or a submission that missed a quote there; rejects when D1 does. */
  async writeThrough(): Promise<void> {
    await this.p.writes.drain();
  }

  /** Quotes that moved, in order: a winner connected here hears how its fill goes; open streams get what is new. */
  async quotesChanged(changes: QuoteChange[]): Promise<void> {
    this.p.house.holds.moved(changes, this.clock.now());
    for (const { quoteId, fill } of changes) {
      if (!fill) continue;
      this.p.nodes.send(fill.resolver, { type: "execution", quoteId, status: fill.status, txHash: fill.txHash });
      this.p.controls.afterFill(quoteId, fill, this.clock.now());
    }
    await this.p.streams.quotesChanged(changes);
  }

  async limitOrderChanged(limitOrderId: string): Promise<void> {
    await this.p.streams.limitOrderChanged(limitOrderId);
  }

  async prices(ask: PriceAsk, client: QuoteAsk): Promise<IndicativePrice | IndicativeLadder | Refusal> {
    return this.p.desk.price(ask, client);
  }

  async nodes(): Promise<NodeSession[]> {
    return this.p.nodes.list();
  }

  async quote(input: QuoteInput, ask: QuoteAsk): Promise<QuoteAnswer> {
    return this.p.desk.quote(input, ask);
  }

  async requestQuote(input: QuoteInput): Promise<QuoteOutcome> {
    return this.p.desk.round(input);
  }

  async gasFeeNow(fill: GasFeeAsk, ask: QuoteAsk | null = null): Promise<GasFeeNow | Refusal> {
    return this.p.desk.gasFeeNow(fill, ask);
  }

  /** New quotes are refused while paused (docs/operations.md, "Pausing"); sockets and given quotes stand. */
  async pause(reason?: string): Promise<CorridorStatus> {
    this.p.controls.pause(reason, this.clock.now());
    return this.status();
  }

  async resume(): Promise<CorridorStatus> {
    this.p.controls.resume();
    return this.status();
  }

  async status(): Promise<CorridorStatus> {
    return this.p.controls.status(this.p.nodes.fresh(this.clock.now()), this.p.writes.backlog());
  }

  /** The oracle's latest band for this corridor; sent on to every authenticated node. */
  async publishBand(band: Band): Promise<void> {
    this.p.band.publish(band);
    this.p.nodes.broadcast({ type: "band", ...band });
  }

  async notifyDemotion(resolver: string, demotion: Demotion): Promise<void> {
    this.p.standing.demoted(resolver, demotion);
  }

  /** An admin de-registered the resolver: its socket here is closed (1008 `not_registered`). */
  async closeNode(address: string): Promise<void> {
    this.left(this.p.nodes.close(address, CLOSE_REASONS.notRegistered, "the resolver is no longer registered"));
  }

  async forgetDemotions(): Promise<void> {
    this.p.standing.forget();
  }
}
