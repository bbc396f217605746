import type { LocalAccount } from "viem";
import { completeToSign } from "../../chains/evm/json-typed-data";
import {
  authMessage,
  type BidCommitment,
  type BidFrame,
  type DeclineFrame,
  HEARTBEAT_EVERY_MS,
  type InventoryEntry,
  type NodeFrame,
  type NodeState,
  nodeFrame,
  type RelayFrame,
  type RfqFrame,
  relayFrame,
  type WelcomeFrame,
} from "../../protocol/frames";
import { bidTextMismatch, completeBidText, toSignMismatch } from "./check-rfq";
import type { InventorySource } from "./inventory";
import type { SolanaSigner } from "./keys";
import { availableInventory, type Band, type Pricer, sameToken, type TokenInfo } from "./pricing";
import { type ChainInfo, type CorridorTarget, connectUrl, targetKey } from "./relay-config";
import { checkSignRequest } from "./solana-sign";

/** The transport a connection needs; `nativeSocket` (Node 22's global WebSocket) unless a test swaps it. */
export interface SocketHandlers {
  open(): void;
  message(data: string): void;
  close(code: number, reason: string): void;
  error(error: Error): void;
}

export interface ResolverSocket {
  send(data: string): void;
  close(code: number, reason: string): void;
  readonly isOpen: boolean;
}

export type SocketFactory = (url: string, handlers: SocketHandlers) => ResolverSocket;

export const nativeSocket: SocketFactory = (url, handlers) => {
  const ws = new WebSocket(url);
  ws.addEventListener("open", () => handlers.open());
  ws.addEventListener("message", (event) => {
    if (typeof event.data === "string") handlers.message(event.data);
    else handlers.error(new Error("the relay sent a binary frame"));
  });
  ws.addEventListener("close", (event) => handlers.close(event.code, event.reason));
  ws.addEventListener("error", () => handlers.error(new Error(`socket error on ${url}`)));
  return {
    send: (data) => ws.send(data),
    close: (code, reason) => ws.close(code, reason),
    get isOpen() {
      return ws.readyState === WebSocket.OPEN;
    },
  };
};

/** A fixed reply delay, or one drawn uniformly from a range, in milliseconds. */
export type Latency = number | { min: number; max: number };

export interface Backoff {
  initialMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { initialMs: 250, maxMs: 15_000 };

/**
 * The wait before reconnect attempt `attempt` (0-based): `initialMs` doubling up to `maxMs`, with
 * "equal jitter" (half fixed, half random) so resolvers dropped together do not return together yet
 * never retry sooner than half the schedule.
 */
export function backoffDelay(attempt: number, random: () => number, backoff: Backoff = DEFAULT_BACKOFF): number {
  const ceiling = Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

export interface ResolverClientOptions {
  /** http(s) or ws(s) base URL of the relay. */
  relayUrl: string;
  /** The node's identity: signs the auth challenge and every bid. */
  account: LocalAccount;
  name: string;
  version: string;
  region?: string | null;
  /** `keyfile` for a key held by the process. */
  signerType?: string | null;
  /**
   * The node's Solana key: proved at auth, it signs the node's bids on Solana corridors and, when it
   * wins, the swap transaction (`sign`). Without it, Solana rfqs are declined `no_solana_key`.
   */
  solana?: SolanaSigner | null;
  /** The relay's chains (`chainsFromRecord`): token decimals, symbols and executors. */
  chains: readonly ChainInfo[];
  corridors: readonly CorridorTarget[];
  pricer: Pricer;
  inventory: InventorySource;
  /** Artificial delay before each reply, for tests and benchmarks. */
  latencyMs?: Latency;
  /** Share of rfqs declined outright (`random_decline`), 0 to 1. */
  declineRate?: number;
  /** State of the first heartbeat. */
  state?: NodeState;
  heartbeatEveryMs?: number;
  backoff?: Backoff;
  /** Drives jitter, latency ranges and the decline rate; injectable so tests are deterministic. */
  random?: () => number;
  socket?: SocketFactory;
}

export type Reply = BidFrame | DeclineFrame;

/** Every event names its corridor by the canonical key the relay uses (`<chainId>:<tokenA>:<tokenB>`). */
export interface ResolverEvents {
  connecting: { corridor: string; url: string; attempt: number };
  open: { corridor: string };
  frame: { corridor: string; frame: RelayFrame };
  sent: { corridor: string; frame: NodeFrame };
  welcome: { corridor: string; frame: WelcomeFrame };
  answer: { corridor: string; rfq: RfqFrame; reply: Reply; elapsedMs: number };
  /** A Solana win: the node checked the swap the relay built against its bid and signed it. */
  signed: { corridor: string; rfq: RfqFrame; outputAmount: bigint; signature: string; elapsedMs: number };
  close: { corridor: string; code: number; reason: string };
  reconnect: { corridor: string; attempt: number; delayMs: number };
  error: { corridor: string; error: Error };
}

/** Why the node did not answer a `sign` request: it answers only for the swap its own bid implies. */
export class SignRefusedError extends Error {
  override readonly name = "SignRefusedError";
  constructor(
    readonly rfqId: string,
    readonly reason: string,
  ) {
    super(`refused to sign the transaction of ${rfqId}: ${reason}`);
  }
}

/** A Solana bid the node sent, kept until its `sign` request, its `result` or its deadline. */
interface SolanaBid {
  corridor: string;
  rfq: RfqFrame;
  outputAmount: bigint;
}

export interface CorridorStatus {
  corridor: string;
  target: CorridorTarget;
  connected: boolean;
  authenticated: boolean;
  band: Band | null;
  inventory: InventoryEntry[];
}

interface Connection {
  key: string;
  target: CorridorTarget;
  chain: ChainInfo;
  url: string;
  socket: ResolverSocket | null;
  authenticated: boolean;
  /** Failed connections since the last welcome: drives the backoff. */
  attempt: number;
  band: Band | null;
  inventory: InventoryEntry[];
  inventoryRead: boolean;
  inventoryFailed: boolean;
  heartbeatTimer: ReturnType<typeof setInterval> | null;
  reconnectTimer: ReturnType<typeof setTimeout> | null;
  /** Heartbeats are sent in order even when an inventory read is slow. */
  heartbeats: Promise<void>;
  /** Resolves `stop()`'s wait once this socket has closed. */
  onStopped: (() => void) | null;
}

interface StateReport {
  state: NodeState;
  degraded: string | null;
}

type Listeners = { [K in keyof ResolverEvents]: Set<(payload: ResolverEvents[K]) => void> };

const STOP_WAIT_MS = 2_000;

/**
 * The reference resolver node: one socket per corridor, authenticated with the node's key, heartbeating
 * its state and inventory, answering each rfq with a signed bid or a decline, and reconnecting with
 * backoff until stopped. Call `start()` after attaching listeners.
 */
export class ResolverClient {
  private readonly options: ResolverClientOptions;
  private readonly random: () => number;
  private readonly connections = new Map<string, Connection>();
  private readonly listeners: Listeners = {
    connecting: new Set(),
    open: new Set(),
    frame: new Set(),
    sent: new Set(),
    welcome: new Set(),
    answer: new Set(),
    signed: new Set(),
    close: new Set(),
    reconnect: new Set(),
    error: new Set(),
  };
  private readonly chainStates = new Map<number, StateReport>();
  /** By rfq id: what the node bid on Solana, so it signs the winning swap only if it moves exactly that. */
  private readonly solanaBids = new Map<string, SolanaBid>();
  private node: StateReport;
  private started = false;
  private stopped = false;

  constructor(options: ResolverClientOptions) {
    const declineRate = options.declineRate ?? 0;
    if (!(declineRate >= 0 && declineRate <= 1)) throw new RangeError("declineRate must be between 0 and 1");
    const latency = options.latencyMs ?? 0;
    const [low, high] = typeof latency === "number" ? [latency, latency] : [latency.min, latency.max];
    if (!(low >= 0 && high >= low)) throw new RangeError("latencyMs must be a non-negative number or range");
    this.options = options;
    this.random = options.random ?? Math.random;
    this.node = { state: options.state ?? "quoting", degraded: null };
    for (const target of options.corridors) {
      const chain = options.chains.find((c) => c.chainId === target.chainId);
      if (!chain) throw new RangeError(`corridor on unknown chain ${target.chainId}`);
      const key = targetKey(chain, target);
      this.connections.set(key, {
        key,
        target,
        chain,
        url: connectUrl(options.relayUrl, target),
        socket: null,
        authenticated: false,
        attempt: 0,
        band: null,
        inventory: [],
        inventoryRead: false,
        inventoryFailed: false,
        heartbeatTimer: null,
        reconnectTimer: null,
        heartbeats: Promise.resolve(),
        onStopped: null,
      });
    }
  }

  get address(): string {
    return this.options.account.address;
  }

  /** Opens every corridor's socket. */
  start(): void {
    if (this.started) return;
    this.started = true;
    for (const connection of this.connections.values()) this.connect(connection);
  }

  /** Closes every socket (1000 `stopped`) and stops reconnecting; resolves once they are closed. */
  async stop(): Promise<void> {
    this.stopped = true;
    const waits: Promise<void>[] = [];
    for (const c of this.connections.values()) {
      this.clearTimers(c);
      const socket = c.socket;
      if (!socket) continue;
      waits.push(new Promise<void>((resolve) => (c.onStopped = resolve)));
      socket.close(1000, "stopped");
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([Promise.all(waits), new Promise((r) => (timer = setTimeout(r, STOP_WAIT_MS)))]);
    clearTimeout(timer);
  }

  /** The node's state on every corridor; reported at once, not at the next scheduled heartbeat. */
  setState(state: NodeState, reason?: string): void {
    this.node = { state, degraded: state === "degraded" ? (reason ?? null) : null };
    for (const c of this.connections.values()) this.heartbeat(c);
  }

  /** One chain's state, reported in heartbeats' `chains`; null withdraws it. */
  setChainState(chainId: number, state: NodeState | null, reason?: string): void {
    if (state === null) this.chainStates.delete(chainId);
    else this.chainStates.set(chainId, { state, degraded: state === "degraded" ? (reason ?? null) : null });
    for (const c of this.connections.values()) this.heartbeat(c);
  }

  status(): CorridorStatus[] {
    return [...this.connections.values()].map((c) => ({
      corridor: c.key,
      target: c.target,
      connected: c.socket?.isOpen ?? false,
      authenticated: c.authenticated,
      band: c.band,
      inventory: c.inventory,
    }));
  }

  on<K extends keyof ResolverEvents>(event: K, listener: (payload: ResolverEvents[K]) => void): () => void {
    const set = this.listeners[event];
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }

  /** The next relay frame of `type` (on `corridor`, if given); rejects after `timeoutMs`. */
  waitFor<T extends RelayFrame["type"]>(
    type: T,
    options: { corridor?: string; timeoutMs?: number } = {},
  ): Promise<Extract<RelayFrame, { type: T }>> {
    const timeoutMs = options.timeoutMs ?? 5_000;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        off();
        reject(new Error(`no ${type} frame within ${timeoutMs} ms`));
      }, timeoutMs);
      const off = this.on("frame", ({ corridor, frame }) => {
        if (!isFrameOf(frame, type) || (options.corridor !== undefined && corridor !== options.corridor)) return;
        clearTimeout(timer);
        off();
        resolve(frame);
      });
    });
  }

  private emit<K extends keyof ResolverEvents>(event: K, payload: ResolverEvents[K]): void {
    for (const listener of [...this.listeners[event]]) listener(payload);
  }

  private connect(c: Connection): void {
    if (this.stopped) return;
    this.emit("connecting", { corridor: c.key, url: c.url, attempt: c.attempt });
    const factory = this.options.socket ?? nativeSocket;
    let socket: ResolverSocket;
    try {
      socket = factory(c.url, {
        open: () => this.emit("open", { corridor: c.key }),
        message: (data) => this.receive(c, data),
        close: (code, reason) => this.closed(c, socket, code, reason),
        error: (error) => this.emit("error", { corridor: c.key, error }),
      });
    } catch (e) {
      this.emit("error", { corridor: c.key, error: asError(e) });
      this.scheduleReconnect(c);
      return;
    }
    c.socket = socket;
  }

  private closed(c: Connection, socket: ResolverSocket, code: number, reason: string): void {
    // A replaced socket's late close must not tear down its successor.
    if (c.socket !== socket) return;
    c.socket = null;
    c.authenticated = false;
    this.clearTimers(c);
    this.emit("close", { corridor: c.key, code, reason });
    if (this.stopped) c.onStopped?.();
    else this.scheduleReconnect(c);
  }

  private scheduleReconnect(c: Connection): void {
    if (this.stopped) return;
    const delayMs = backoffDelay(c.attempt, this.random, this.options.backoff);
    c.attempt += 1;
    this.emit("reconnect", { corridor: c.key, attempt: c.attempt, delayMs });
    c.reconnectTimer = setTimeout(() => {
      c.reconnectTimer = null;
      this.connect(c);
    }, delayMs);
  }

  private clearTimers(c: Connection): void {
    if (c.heartbeatTimer) clearInterval(c.heartbeatTimer);
    if (c.reconnectTimer) clearTimeout(c.reconnectTimer);
    c.heartbeatTimer = null;
    c.reconnectTimer = null;
  }

  private receive(c: Connection, data: string): void {
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      this.emit("error", { corridor: c.key, error: new Error(`the relay sent a frame that is not JSON: ${data}`) });
      return;
    }
    const parsed = relayFrame.safeParse(json);
    if (!parsed.success) {
      this.emit("error", { corridor: c.key, error: new Error(`unrecognised relay frame: ${data.slice(0, 200)}`) });
      return;
    }
    const frame = parsed.data;
    this.emit("frame", { corridor: c.key, frame });
    switch (frame.type) {
      case "challenge":
        void this.authenticate(c, frame.corridor, frame.nonce);
        return;
      case "welcome":
        c.authenticated = true;
        c.attempt = 0;
        c.band = frame.band;
        this.emit("welcome", { corridor: c.key, frame });
        this.heartbeat(c);
        if (c.heartbeatTimer) clearInterval(c.heartbeatTimer);
        c.heartbeatTimer = setInterval(() => this.heartbeat(c), this.options.heartbeatEveryMs ?? HEARTBEAT_EVERY_MS);
        return;
      case "band": {
        const { type: _, ...band } = frame;
        c.band = band;
        return;
      }
      case "rfq":
        void this.answer(c, frame);
        return;
      case "sign":
        this.sign(c, frame);
        return;
      case "result":
        // The auction is over, signed or not: nothing more will be asked about this bid.
        if (this.solanaBids.get(frame.rfqId)?.corridor === c.key) this.solanaBids.delete(frame.rfqId);
        return;
      default:
        // execution and error frames are for listeners (the CLI logs them); nothing to do here.
        return;
    }
  }

  private async authenticate(c: Connection, corridor: string, nonce: string): Promise<void> {
    const { account, name, version, region, signerType, solana } = this.options;
    const text = authMessage(corridor, nonce);
    try {
      const signature = await account.signMessage({ message: text });
      this.send(c, {
        type: "auth",
        address: account.address,
        signature,
        name,
        version,
        ...(region ? { region } : {}),
        ...(signerType ? { signerType } : {}),
        ...(solana ? { solana: { address: solana.address, signature: solana.sign(text) } } : {}),
      });
    } catch (e) {
      this.emit("error", { corridor: c.key, error: asError(e) });
    }
  }

  private heartbeat(c: Connection): void {
    if (!c.authenticated) return;
    c.heartbeats = c.heartbeats.then(() => this.sendHeartbeat(c));
  }

  private async sendHeartbeat(c: Connection): Promise<void> {
    try {
      c.inventory = await this.options.inventory.read(c.chain, [c.target.tokenA, c.target.tokenB]);
      c.inventoryRead = true;
      c.inventoryFailed = false;
    } catch (e) {
      // Keep the last figures, but say the node cannot vouch for them.
      c.inventoryFailed = true;
      this.emit("error", { corridor: c.key, error: asError(e) });
    }
    if (!c.authenticated) return;
    const { state, degraded } =
      c.inventoryFailed && this.node.state === "quoting"
        ? { state: "degraded" as const, degraded: "inventory_unavailable" }
        : this.node;
    const chains = [...this.chainStates].map(([chainId, s]) => ({ chainId, state: s.state, degraded: s.degraded }));
    this.send(c, {
      type: "heartbeat",
      state,
      degraded,
      inventory: c.inventory,
      ...(chains.length ? { chains } : {}),
    });
  }

  private async answer(c: Connection, rfq: RfqFrame): Promise<void> {
    const started = Date.now();
    const reply = await this.decide(c, rfq);
    const wait = this.latency() - (Date.now() - started);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    if (!this.send(c, reply)) return;
    if (reply.type === "bid" && rfq.toSign.scheme === "ed25519") this.rememberBid(c, rfq, BigInt(reply.outputAmount));
    this.emit("answer", { corridor: c.key, rfq, reply, elapsedMs: Date.now() - started });
  }

  private rememberBid(c: Connection, rfq: RfqFrame, outputAmount: bigint): void {
    const now = Date.now() / 1000;
    for (const [rfqId, bid] of this.solanaBids) if (bid.rfq.deadline < now) this.solanaBids.delete(rfqId);
    this.solanaBids.set(rfq.rfqId, { corridor: c.key, rfq, outputAmount });
  }

  /**
   * Answers a winner's `sign` (docs/resolver-protocol.md, "Signing after the auction"): the transaction
   * must be, byte for byte, the swap this node's bid implies (`checkSignRequest`); then `signed` with its
   * ed25519 signature over the message. Anything else gets no answer, and an `error` event here: the relay
   * passes the win on when the answer does not come. One request per bid.
   */
  private sign(c: Connection, frame: SignFrame): void {
    const started = Date.now();
    const approved = this.approveSignRequest(c, frame);
    if (typeof approved === "string") {
      this.emit("error", { corridor: c.key, error: new SignRefusedError(frame.rfqId, approved) });
      return;
    }
    const { bid, signer, message } = approved;
    const signature = signer.signBytes(message);
    if (!this.send(c, { type: "signed", rfqId: frame.rfqId, signature })) return;
    const { rfq, outputAmount } = bid;
    this.emit("signed", { corridor: c.key, rfq, outputAmount, signature, elapsedMs: Date.now() - started });
  }

  /** The message to sign for a `sign` request, with the bid it answers; or why not. Consumes the bid. */
  private approveSignRequest(
    c: Connection,
    frame: SignFrame,
  ): { bid: SolanaBid; signer: SolanaSigner; message: Uint8Array } | string {
    const bid = this.solanaBids.get(frame.rfqId);
    if (!bid || bid.corridor !== c.key) return "this node sent no Solana bid for it on this corridor";
    this.solanaBids.delete(frame.rfqId);
    const signer = this.options.solana;
    const settings = c.chain.solana;
    if (!signer || !settings) return "no Solana key or chain settings to check it with";
    try {
      const check = checkSignRequest(
        settings,
        bid.rfq,
        { resolver: signer.address, outputAmount: bid.outputAmount },
        frame.transaction,
      );
      return check.ok ? { bid, signer, message: check.message } : check.reason;
    } catch (e) {
      return asError(e).message;
    }
  }

  private async decide(c: Connection, rfq: RfqFrame): Promise<Reply> {
    const decline = (reason: string): DeclineFrame => ({ type: "decline", rfqId: rfq.rfqId, reason });
    const declineRate = this.options.declineRate ?? 0;
    if (declineRate > 0 && this.random() < declineRate) return decline("random_decline");
    for (const report of [this.node, this.chainStates.get(rfq.chainId)]) {
      if (report && report.state !== "quoting") return decline(report.degraded ?? report.state);
    }
    const chain = this.options.chains.find((ch) => ch.chainId === rfq.chainId);
    // EVM bids sign EIP-712 fills; Solana bids an ed25519 price commitment, and later the swap itself.
    const { toSign } = rfq;
    if (!chain || chain.kind !== (toSign.scheme === "eip712" ? "evm" : "solana")) return decline("unsupported_chain");
    const { solana } = this.options;
    if (toSign.scheme === "ed25519" && !solana) return decline("no_solana_key");
    const sellToken = findToken(chain, rfq.sellToken);
    const buyToken = findToken(chain, rfq.buyToken);
    if (!sellToken || !buyToken) return decline("unknown_token");
    const mismatch =
      toSign.scheme === "eip712" ? toSignMismatch(rfq, toSign, chain) : bidTextMismatch(rfq, toSign.text, c.key);
    if (mismatch) return decline(`to_sign_mismatch:${mismatch}`);
    let outputAmount: bigint;
    try {
      const decision = await this.options.pricer({
        chainId: rfq.chainId,
        sellToken,
        buyToken,
        sellAmount: BigInt(rfq.sellAmount),
        band: rfq.band ?? c.band,
      });
      if ("decline" in decision) return decline(decision.decline);
      outputAmount = decision.outputAmount;
    } catch (e) {
      this.emit("error", { corridor: c.key, error: asError(e) });
      return decline("pricing_error");
    }
    if (outputAmount <= 0n) return decline("amount_too_small");
    // An rfq can beat the first inventory read after welcome; judge it by that read, not by nothing.
    if (!c.inventoryRead) await c.heartbeats;
    if (availableInventory(c.inventory, rfq.chainId, rfq.buyToken) < outputAmount) {
      return decline("insufficient_inventory");
    }
    try {
      const signature = await this.signBid(toSign, outputAmount);
      return { type: "bid", rfqId: rfq.rfqId, outputAmount: outputAmount.toString(), signature };
    } catch (e) {
      this.emit("error", { corridor: c.key, error: asError(e) });
      return decline("cannot_sign");
    }
  }

  /** The bid's signature over its commitment: EIP-712 by the node's account, or ed25519 by its Solana key. */
  private async signBid(toSign: BidCommitment, outputAmount: bigint): Promise<string> {
    if (toSign.scheme === "eip712") return this.options.account.signTypedData(completeToSign(toSign, outputAmount));
    if (!this.options.solana) throw new Error("no Solana key to sign the bid with");
    return this.options.solana.sign(completeBidText(toSign.text, outputAmount));
  }

  private latency(): number {
    const latency = this.options.latencyMs ?? 0;
    if (typeof latency === "number") return latency;
    return latency.min + this.random() * (latency.max - latency.min);
  }

  /** Validates the frame against the protocol before it leaves; a closing socket swallows it. */
  private send(c: Connection, frame: NodeFrame): boolean {
    const checked = nodeFrame.safeParse(frame);
    if (!checked.success) {
      this.emit("error", { corridor: c.key, error: new Error(`refused to send an invalid ${frame.type} frame`) });
      return false;
    }
    if (!c.socket?.isOpen) return false;
    try {
      c.socket.send(JSON.stringify(frame));
    } catch {
      return false;
    }
    this.emit("sent", { corridor: c.key, frame });
    return true;
  }
}

function findToken(chain: ChainInfo, address: string): TokenInfo | undefined {
  return chain.tokens.find((t) => sameToken(t.address, address));
}

type SignFrame = Extract<RelayFrame, { type: "sign" }>;

function isFrameOf<T extends RelayFrame["type"]>(
  frame: RelayFrame,
  type: T,
): frame is Extract<RelayFrame, { type: T }> {
  return frame.type === type;
}

function asError(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}
