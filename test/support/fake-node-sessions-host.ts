import { vi } from "vitest";
import type { AuctionReply } from "../../src/auction/replies";
import type { ProvedKeys } from "../../src/chains";
import { COUNTER_COLUMNS } from "../../src/db/resolver-days";
import type { NodeChecks, SessionsSide } from "../../src/nodes/inventory-checks";
import type { SocketState } from "../../src/nodes/node-sockets";
import type { ChainFlag, NodeSession } from "../../src/nodes/nodes";
import type { CorridorNodesHost, NodeEvent } from "../../src/nodes/ports";
import type { LevelsFrame, NodeState } from "../../src/protocol/node-frames";
import type { RelayFrame } from "../../src/protocol/relay-frames";
import type { Band } from "../../src/schemas/quote";

/** The server side of a node's socket in memory: the frames the relay sent on it, and how it closed it. */
export class FakeSocket {
  readonly frames: RelayFrame[] = [];
  closed: { code: number; reason: string } | null = null;
  private attachment: unknown = null;

  /** As in workerd, a closed socket throws on `send` and `close`. */
  send(data: string): void {
    if (this.closed) throw new Error("the socket is closed");
    this.frames.push(JSON.parse(data) as RelayFrame);
  }

  close(code: number, reason: string): void {
    if (this.closed) throw new Error("the socket is closed");
    this.closed = { code, reason };
  }

  serializeAttachment(value: unknown): void {
    this.attachment = structuredClone(value);
  }

  deserializeAttachment(): unknown {
    return structuredClone(this.attachment);
  }

  /** The frames of one type sent so far. */
  sent<T extends RelayFrame["type"]>(type: T): Extract<RelayFrame, { type: T }>[] {
    return this.frames.filter((f): f is Extract<RelayFrame, { type: T }> => f.type === type);
  }

  get ws(): WebSocket {
    return this as unknown as WebSocket;
  }
}

class FakeWebSocketPair {
  0 = new FakeSocket();
  1 = new FakeSocket();
}

/** A Durable Object's sockets and synchronous storage in memory; a new `NodeSessions` over it is one woken from hibernation. */
export class FakeSocketState implements SocketState {
  readonly accepted: FakeSocket[] = [];
  readonly kv = new Map<string, unknown>();
  readonly pending: Promise<unknown>[] = [];
  readonly storage = {
    kv: {
      get: <T>(key: string) => structuredClone(this.kv.get(key)) as T | undefined,
      put: <T>(key: string, value: T) => {
        this.kv.set(key, structuredClone(value));
      },
      delete: (key: string) => this.kv.delete(key),
    },
  };

  acceptWebSocket(ws: WebSocket): void {
    this.accepted.push(ws as unknown as FakeSocket);
  }

  getWebSockets(): WebSocket[] {
    return this.accepted.filter((s) => !s.closed).map((s) => s.ws);
  }

  waitUntil(promise: Promise<unknown>): void {
    this.pending.push(promise);
  }
}

/** What the sessions wrote to D1, by what it means for the node's directory entry and counters. */
export type SessionWrite =
  | {
      kind: "seen";
      address: string;
      name: string;
      corridor: unknown;
      state: NodeState | null;
      at: string;
      /** Whether it makes the entry when there is none (the node is covered), or only refreshes one. */
      create: boolean;
    }
  | { kind: "touch"; address: string; state: NodeState; degraded: string | null; at: string }
  | { kind: "uptime"; address: string; day: string; connectedMs: number; freshMs: number };

interface Statement {
  sql: string;
  params: unknown[];
}

const COUNTERS = Object.keys(COUNTER_COLUMNS);
const counter = (params: unknown[], name: keyof typeof COUNTER_COLUMNS) => params[2 + COUNTERS.indexOf(name)] as number;

/** Reads a statement of src/db/resolvers.ts or src/db/resolver-days.ts back as what it writes. */
function meaning({ sql, params }: Statement): SessionWrite {
  const text = (i: number) => params[i] as string;
  if (/^\s*INSERT INTO resolvers\b/.test(sql)) {
    const state = params[7] as NodeState | null;
    const create = params[10] === 1;
    return { kind: "seen", address: text(0), name: text(1), corridor: JSON.parse(text(6)), state, at: text(9), create };
  }
  if (/^\s*UPDATE resolvers SET last_seen\b/.test(sql)) {
    const [state, degraded] = [params[2] as NodeState, params[3] as string | null];
    return { kind: "touch", address: text(0), state, degraded, at: text(1) };
  }
  if (/^\s*INSERT INTO resolver_days\b/.test(sql)) {
    const counts = { connectedMs: counter(params, "connectedMs"), freshMs: counter(params, "freshMs") };
    return { kind: "uptime", address: text(0), day: text(1), ...counts };
  }
  throw new Error(`a write the node sessions do not make: ${sql}`);
}

/** D1 as far as the node sessions use it: statements are recorded as they run; registration is `registered`. */
function recordingD1(registered: Set<string>) {
  const written: Statement[] = [];
  const statement = (sql: string, params: unknown[] = []) => ({
    sql,
    params,
    bind: (...bound: unknown[]) => statement(sql, bound),
    run: async () => {
      written.push({ sql, params });
      return { success: true, results: [], meta: {} };
    },
    first: async () => {
      if (!/\bregistered = 1\b/.test(sql)) throw new Error(`a read the node sessions do not make: ${sql}`);
      return registered.has(String(params[0]).toLowerCase()) ? { ok: 1 } : null;
    },
  });
  const db = {
    prepare: (sql: string) => statement(sql),
    batch: async (statements: Statement[]) => {
      for (const s of statements) written.push({ sql: s.sql, params: s.params });
      return [];
    },
  };
  return { db: db as unknown as D1Database, written };
}

/** What the sessions told their host, in order. */
export type HostEvent =
  | { on: "active"; at: number }
  /** The checks told of a new session, or of a heartbeat (`NodeChecks.restart`, `heard`). */
  | { on: "authenticated" | "heartbeat"; node: ProvedKeys; at: number }
  | { on: "levels"; node: NodeSession; frame: LevelsFrame };

export interface FakeHostOptions {
  corridorKey?: string;
  requireRegistration?: boolean;
  /** Addresses registered in the directory. */
  registered?: string[];
  rfqWindowMs?: number;
  band?: Band | null;
}

/**
 * The node sessions' host (`CorridorNodesHost` of src/nodes/ports.ts) and the object state they keep
 * their sockets in, in memory: the corridor's callbacks are recorded (`events`), what the chain holds
 * against a node is what the test puts in `flags`, and D1 writes are read back by meaning (`writes`).
 */
export function fakeNodeSessionsHost(options: FakeHostOptions = {}) {
  vi.stubGlobal("WebSocketPair", FakeWebSocketPair);
  const registered = new Set((options.registered ?? []).map((a) => a.toLowerCase()));
  const { db, written } = recordingD1(registered);
  const state = new FakeSocketState();
  const events: HostEvent[] = [];
  const flags = new Map<string, ChainFlag>();
  let side: SessionsSide | null = null;
  const checks: NodeChecks = {
    flag: (address) => flags.get(address.toLowerCase()) ?? null,
    restart: (node, at) => events.push({ on: "authenticated", node, at }),
    heard: (node, at) => events.push({ on: "heartbeat", node, at }),
    forget: () => {},
    covers: () => true,
    readAt: () => null,
  };
  const host: CorridorNodesHost = {
    corridorKey: options.corridorKey ?? "31337:cngn:usdc",
    requireRegistration: options.requireRegistration ?? false,
    rfqWindowMs: options.rfqWindowMs ?? 500,
    limits: { socketsPerClient: 50, newSocketsPerMinute: 600, socketsPerCorridor: 500 },
    db,
    band: () => options.band ?? null,
    checks: (sessions) => {
      side = sessions;
      return checks;
    },
  };
  /** What the corridor object makes of what a frame raised (`NodeEvent`): recorded, and an auction's reply returned. */
  const raised = (event: NodeEvent | null): AuctionReply | null => {
    if (event?.type === "reply") return event.reply;
    if (event?.type === "levels") events.push({ on: "levels", node: event.node, frame: event.frame });
    else if (event) events.push({ on: "active", at: Date.now() });
    return null;
  };
  return {
    state,
    host,
    raised,
    events,
    /** What the chain holds against a node, by lowercase address (`InventoryChecks.flag`). */
    flags,
    /** The sessions as their inventory checks see them: the claims read, and the verdicts told. */
    side: (): SessionsSide => {
      if (!side) throw new Error("no sessions were built on this host");
      return side;
    },
    /** Everything written to D1 so far, in order. */
    writes: (): SessionWrite[] => written.map(meaning),
    /** Every write handed to `waitUntil`, settled. */
    settled: () => Promise.all(state.pending),
  };
}
