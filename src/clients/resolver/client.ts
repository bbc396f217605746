import { HEARTBEAT_EVERY_MS } from "../../protocol/frame-limits";
import type { NodeState } from "../../protocol/node-frames";
import type { RelayFrame, RfqFrame, WelcomeFrame } from "../../protocol/relay-frames";
import type { Band } from "../../schemas/quote";
import { Bidder, type RfqCorridor } from "./bidder";
import type { ResolverClientOptions, ResolverCorridorStatus } from "./client-options";
import { asError, ResolverEmitter, type ResolverEvents } from "./events";
import { authFrameFor, dispatchRelayFrame, parseRelayFrame, type RelayFrameHandlers } from "./frame-codec";
import { Heartbeats } from "./heartbeats";
import { Ladders, LEVELS_EVERY_MS } from "./ladder";
import { NodeStates } from "./node-state";
import { OpenQuotes } from "./open-quotes";
import { type ChainInfo, type CorridorTarget, connectUrl, targetKey } from "./relay-config";
import { CorridorSocket, nativeSocket } from "./socket";
import { SignRefusedError, SolanaBids } from "./solana-sign";

/** One corridor: its socket and what the session on it holds. */
interface Corridor extends RfqCorridor {
  key: string;
  target: CorridorTarget;
  chain: ChainInfo;
  socket: CorridorSocket;
  heartbeats: Heartbeats;
  openQuotes: OpenQuotes;
  ladders: Ladders | null;
  authenticated: boolean;
  band: Band | null;
}

const STOP_WAIT_MS = 2_000;

/**
 * The reference resolver node: one socket per corridor, authenticated with the node's key, heartbeating
 * its state and inventory, answering each rfq with a signed bid or a decline, and reconnecting with
 * backoff until stopped. Call `start()` after attaching listeners.
 */
export class ResolverClient {
  private readonly events = new ResolverEmitter();
  private readonly corridors = new Map<string, Corridor>();
  private readonly states: NodeStates;
  private readonly bidder: Bidder;
  /** What the node bid on Solana, so it signs the winning swap only if it moves exactly that. */
  private readonly solanaBids = new SolanaBids();
  private started = false;

  constructor(private readonly options: ResolverClientOptions) {
    const random = options.random ?? Math.random;
    const emit = this.events.emit;
    this.states = new NodeStates(options.state);
    this.bidder = new Bidder({ ...options, random, states: this.states, emit });
    for (const target of options.corridors) {
      const chain = options.chains.find((c) => c.chainId === target.chainId);
      if (!chain) throw new RangeError(`corridor on unknown chain ${target.chainId}`);
      const key = targetKey(chain, target);
      const corridor: Corridor = {
        key,
        target,
        chain,
        socket: new CorridorSocket({
          corridor: key,
          url: connectUrl(options.relayUrl, target),
          factory: options.socket ?? nativeSocket,
          random,
          backoff: options.backoff,
          timer: options.timer,
          emit,
          onMessage: (data) => this.receive(corridor, data),
          onClose: () => {
            corridor.authenticated = false;
            corridor.heartbeats.stop();
            corridor.ladders?.stop();
          },
        }),
        heartbeats: new Heartbeats({
          corridor: key,
          chain,
          target,
          source: options.inventory,
          states: this.states,
          everyMs: options.heartbeatEveryMs ?? HEARTBEAT_EVERY_MS,
          authenticated: () => corridor.authenticated,
          send: (frame) => corridor.socket.send(frame),
          emit,
        }),
        ladders:
          options.levels === false
            ? null
            : new Ladders({
                corridor: key,
                chain,
                target,
                pricer: options.levels?.pricer ?? options.pricer,
                everyMs: options.levels?.everyMs ?? LEVELS_EVERY_MS,
                ...(options.levels?.ttlMs === undefined ? {} : { ttlMs: options.levels.ttlMs }),
                band: () => corridor.band,
                inventory: () =>
                  corridor.openQuotes.free(corridor.heartbeats.inventory, null, Date.now(), corridor.heartbeats.readAt),
                send: (frame) => corridor.socket.send(frame),
                emit,
              }),
        openQuotes: new OpenQuotes(),
        authenticated: false,
        band: null,
      };
      this.corridors.set(key, corridor);
    }
  }

  get address(): string {
    return this.options.account.address;
  }

  /** Opens every corridor's socket. */
  start(): void {
    if (this.started) return;
    this.started = true;
    for (const c of this.corridors.values()) c.socket.connect();
  }

  /** Closes every socket (1000 `stopped`) and stops reconnecting; resolves once they are closed. */
  async stop(): Promise<void> {
    const waits: Promise<void>[] = [];
    for (const c of this.corridors.values()) {
      c.heartbeats.stop();
      c.ladders?.stop();
      waits.push(c.socket.stop());
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([Promise.all(waits), new Promise((r) => (timer = setTimeout(r, STOP_WAIT_MS)))]);
    clearTimeout(timer);
  }

  /** The node's state on every corridor; reported at once, not at the next scheduled heartbeat. */
  setState(state: NodeState, reason?: string): void {
    this.states.set(state, reason);
    for (const c of this.corridors.values()) c.heartbeats.beat();
  }

  /** One chain's state, reported in heartbeats' `chains`; null withdraws it. */
  setChainState(chainId: number, state: NodeState | null, reason?: string): void {
    this.states.setChain(chainId, state, reason);
    for (const c of this.corridors.values()) c.heartbeats.beat();
  }

  status(): ResolverCorridorStatus[] {
    return [...this.corridors.values()].map((c) => ({
      corridor: c.key,
      target: c.target,
      connected: c.socket.isOpen,
      authenticated: c.authenticated,
      band: c.band,
      inventory: c.heartbeats.inventory,
    }));
  }

  on<K extends keyof ResolverEvents>(event: K, listener: (payload: ResolverEvents[K]) => void): () => void {
    return this.events.on(event, listener);
  }

  /** The next relay frame of `type` (on `corridor`, if given); rejects after `timeoutMs`. */
  waitFor<T extends RelayFrame["type"]>(
    type: T,
    options: { corridor?: string; timeoutMs?: number } = {},
  ): Promise<Extract<RelayFrame, { type: T }>> {
    return this.events.waitFor(type, options);
  }

  private receive(c: Corridor, data: string): void {
    const parsed = parseRelayFrame(data);
    if (!parsed.ok) {
      this.events.emit("error", { corridor: c.key, error: parsed.error });
      return;
    }
    this.events.emit("frame", { corridor: c.key, frame: parsed.frame });
    dispatchRelayFrame(parsed.frame, this.handlers(c));
  }

  /**
   * What the node does on each relay frame; `result` and `execution` also keep its open quotes; error and
   * demoted frames are for listeners.
   */
  private handlers(c: Corridor): RelayFrameHandlers {
    return {
      challenge: (frame) => void this.authenticate(c, frame.corridor, frame.nonce),
      welcome: (frame) => this.welcomed(c, frame),
      band: ({ type: _, ...band }) => {
        c.band = band;
      },
      rfq: (rfq) => void this.answer(c, rfq),
      sign: (frame) => this.sign(c, frame),
      result: (frame) => {
        this.solanaBids.settled(c.key, frame.rfqId);
        c.openQuotes.result(frame.rfqId, frame.won);
      },
      execution: (frame) => c.openQuotes.execution(frame.quoteId, frame.status, Date.now()),
    };
  }

  private async authenticate(c: Corridor, corridor: string, nonce: string): Promise<void> {
    try {
      c.socket.send(await authFrameFor(this.options, corridor, nonce));
    } catch (e) {
      this.events.emit("error", { corridor: c.key, error: asError(e) });
    }
  }

  private welcomed(c: Corridor, frame: WelcomeFrame): void {
    c.authenticated = true;
    c.socket.welcomed();
    c.band = frame.band;
    this.events.emit("welcome", { corridor: c.key, frame });
    c.heartbeats.start();
    // Ladders go out once the first heartbeat's inventory read is in: a rung is only what the node can deliver.
    void c.heartbeats.queue.then(() => {
      if (c.authenticated) c.ladders?.start();
    });
  }

  private async answer(c: Corridor, rfq: RfqFrame): Promise<void> {
    const started = Date.now();
    const reply = await this.bidder.decide(c, rfq);
    const wait = this.bidder.latency() - (Date.now() - started);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    if (!c.socket.send(reply)) return;
    if (reply.type === "bid") c.openQuotes.bid(rfq, BigInt(reply.outputAmount), Date.now());
    if (reply.type === "bid" && rfq.toSign.scheme === "ed25519") {
      const part = reply.sellAmount === undefined ? undefined : BigInt(reply.sellAmount);
      this.solanaBids.remember(c.key, rfq, BigInt(reply.outputAmount), part);
    }
    this.events.emit("answer", { corridor: c.key, rfq, reply, elapsedMs: Date.now() - started });
  }

  /**
   * Answers a winner's `sign` at once, without the artificial latency, or not at all: a refusal is an
   * `error` event here, and the relay passes the win on when no answer comes.
   */
  private sign(c: Corridor, frame: Extract<RelayFrame, { type: "sign" }>): void {
    const started = Date.now();
    const answer = this.solanaBids.sign(c.key, c.chain.solana, this.options.solana, frame);
    if (answer instanceof SignRefusedError) {
      this.events.emit("error", { corridor: c.key, error: answer });
      return;
    }
    const { rfq, outputAmount, signature } = answer;
    if (!c.socket.send({ type: "signed", rfqId: frame.rfqId, signature })) return;
    this.events.emit("signed", { corridor: c.key, rfq, outputAmount, signature, elapsedMs: Date.now() - started });
  }
}
