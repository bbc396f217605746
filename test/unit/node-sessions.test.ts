import { privateKeyToAccount } from "viem/accounts";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CorridorNodes } from "../../src/nodes/corridor-nodes";
import { authMessage } from "../../src/protocol/node-frames";
import type { RelayFrame } from "../../src/protocol/relay-frames";
import { FakeLiveAuctions } from "../support/fake-live-auctions";
import { type FakeHostOptions, type FakeSocket, fakeNodeSessionsHost } from "../support/fake-node-sessions-host";

/**
 * A corridor's node sessions (src/nodes/corridor-nodes.ts) over a fake host: what a node sees (frames, close
 * codes), what the corridor is told, and what is written to the resolver directory in D1.
 */

/** anvil's dev accounts 1 and 2: well-known keys that hold nothing of value. */
const ALPHA = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
const BETA = privateKeyToAccount("0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a");
const CORRIDOR = { chainId: 31337, baseToken: "0xUSDC", quoteToken: "0xCNGN" };
const T0 = Date.UTC(2025, 0, 1, 12);
const USDC = { chainId: 31337, token: "0xUSDC", balance: "5000000000", allowance: "5000000000" };

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(T0);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function setup(options: FakeHostOptions = {}) {
  const h = fakeNodeSessionsHost({ band: null, ...options });
  const auctions = new FakeLiveAuctions();
  const sessions = new CorridorNodes(h.state, h.host, auctions);
  /** A node's socket, accepted and challenged. */
  const connect = (): FakeSocket => {
    sessions.accept(CORRIDOR, "ip:192.0.2.1", Date.now());
    const socket = h.state.accepted.at(-1);
    if (!socket) throw new Error("no socket accepted");
    return socket;
  };
  const receive = (socket: FakeSocket, frame: unknown) =>
    sessions.receive(socket.ws, typeof frame === "string" ? frame : JSON.stringify(frame)).then(h.raised);
  /** Answers the socket's challenge as `account` (signing with `signer`). */
  const auth = async (socket: FakeSocket, account = ALPHA, signer = account) => {
    const challenge = socket.sent("challenge")[0];
    if (!challenge) throw new Error("no challenge");
    const signature = await signer.signMessage({ message: authMessage(challenge.corridor, challenge.nonce) });
    return receive(socket, { type: "auth", address: account.address, signature, name: "alpha", version: "1.0.0" });
  };
  const online = async (account = ALPHA) => {
    const socket = connect();
    await auth(socket, account);
    return socket;
  };
  const heartbeat = (socket: FakeSocket, state = "quoting", extra: object = {}) =>
    receive(socket, { type: "heartbeat", state, inventory: [USDC], ...extra });
  return { ...h, sessions, auctions, connect, receive, auth, online, heartbeat };
}

const errorOf = (socket: FakeSocket) => socket.sent("error").at(-1);
const types = (socket: FakeSocket) => socket.frames.map((f: RelayFrame) => f.type);

describe("accepting a node", () => {
  it("challenges the socket with a fresh nonce for the corridor and gives it 5 s to authenticate", () => {
    const t = setup();
    const accepted = t.sessions.accept(CORRIDOR, "ip:192.0.2.1", Date.now());
    t.sessions.accept(CORRIDOR, "ip:192.0.2.1", Date.now());
    const [a, b] = t.state.accepted.map((s) => s.sent("challenge")[0]);
    expect(a).toMatchObject({ type: "challenge", corridor: "31337:cngn:usdc" });
    expect(a?.nonce).not.toEqual(b?.nonce);
    expect(accepted).toMatchObject({ authDeadline: T0 + 5_000 });
    expect(t.sessions.list()).toEqual([]);
  });

  it("welcomes a node whose signature proves its address, lists it degraded no_heartbeat, and refreshes a directory entry it has, making none", async () => {
    const band = { base: "USD", quote: "NGN", mid: 1580, low: 1575, high: 1590, sources: 3, at: T0 };
    const t = setup({ band, rfqWindowMs: 750 });
    const socket = t.connect();
    expect(await t.auth(socket)).toBeNull();
    expect(socket.sent("welcome")).toEqual([
      { type: "welcome", address: ALPHA.address, corridor: "31337:cngn:usdc", rfqWindowMs: 750, band },
    ]);
    expect(t.sessions.list()).toMatchObject([
      {
        address: ALPHA.address,
        name: "alpha",
        state: "degraded",
        degraded: "no_heartbeat",
        lastHeartbeat: null,
        corridor: CORRIDOR,
      },
    ]);
    expect(t.events.map((e) => e.on)).toEqual(["authenticated", "active"]);
    expect(t.writes()).toEqual([
      {
        kind: "seen",
        address: ALPHA.address.toLowerCase(),
        name: "alpha",
        corridor: CORRIDOR,
        state: null,
        at: new Date(T0).toISOString(),
        create: false,
      },
    ]);
  });

  it("closes a socket whose signature is another key's with 1008 bad_signature, writing nothing", async () => {
    const t = setup();
    const socket = t.connect();
    await t.auth(socket, ALPHA, BETA);
    expect(errorOf(socket)).toMatchObject({ code: "bad_signature" });
    expect(socket.closed).toEqual({ code: 1008, reason: "bad_signature" });
    expect(t.sessions.list()).toEqual([]);
    expect(t.writes()).toEqual([]);
    expect(t.events).toEqual([]);
  });

  it("closes an unregistered node with 1008 not_registered where registration is required", async () => {
    const t = setup({ requireRegistration: true, registered: [BETA.address] });
    const alpha = t.connect();
    await t.auth(alpha, ALPHA);
    expect(alpha.closed).toEqual({ code: 1008, reason: "not_registered" });
    const beta = t.connect();
    await t.auth(beta, BETA);
    expect(beta.closed).toBeNull();
    expect(t.sessions.list().map((n) => n.address)).toEqual([BETA.address]);
  });

  it("closes a socket whose first frame is not auth with 1008 bad_frame", async () => {
    const t = setup();
    const socket = t.connect();
    await t.heartbeat(socket);
    expect(errorOf(socket)).toMatchObject({ code: "bad_frame", message: "the first frame must be auth" });
    expect(socket.closed).toEqual({ code: 1008, reason: "bad_frame" });
  });

  it("answers a second auth with an error and keeps the socket", async () => {
    const t = setup();
    const socket = await t.online();
    await t.auth(socket);
    expect(errorOf(socket)).toMatchObject({ code: "already_authenticated" });
    expect(socket.closed).toBeNull();
  });

  it("replaces a node's older socket (closed 1000 replaced) when it authenticates again", async () => {
    const t = setup();
    const older = await t.online();
    const newer = await t.online();
    expect(older.closed).toEqual({ code: 1000, reason: "replaced" });
    expect(newer.closed).toBeNull();
    expect(t.sessions.list()).toHaveLength(1);
    t.sessions.send(ALPHA.address, { type: "execution", quoteId: "q", status: "settled", txHash: null });
    expect(types(newer)).toContain("execution");
    expect(types(older)).not.toContain("execution");
  });
});

describe("closing sockets that do not authenticate", () => {
  it("closes them with 1008 timeout once their deadline passed, and says when the next one is due", async () => {
    const t = setup();
    const late = t.connect();
    vi.setSystemTime(T0 + 2_000);
    const pending = t.connect();
    const authed = await t.online();
    expect(t.sessions.closeUnauthenticated(T0 + 4_999)).toBe(T0 + 5_000);
    expect(late.closed).toBeNull();
    expect(t.sessions.closeUnauthenticated(T0 + 5_000)).toBe(T0 + 7_000);
    expect(errorOf(late)).toMatchObject({ code: "timeout" });
    expect(late.closed).toEqual({ code: 1008, reason: "timeout" });
    expect(pending.closed).toBeNull();
    expect(t.sessions.closeUnauthenticated(T0 + 7_000)).toBeNull();
    expect(pending.closed).toEqual({ code: 1008, reason: "timeout" });
    expect(authed.closed).toBeNull();
  });
});

describe("heartbeats", () => {
  it("keep the node's state and inventory, tell the corridor, and give its claims", async () => {
    const t = setup();
    const socket = await t.online();
    vi.setSystemTime(T0 + 1_000);
    await t.heartbeat(socket, "degraded", { degraded: "slow rpc", chains: [{ chainId: 1, state: "quoting" }] });
    expect(t.sessions.list()).toMatchObject([
      {
        state: "degraded",
        degraded: "slow rpc",
        lastHeartbeat: T0 + 1_000,
        inventory: [USDC],
        chains: [{ chainId: 1, state: "quoting", degraded: null }],
      },
    ]);
    expect(t.events.slice(-2)).toMatchObject([
      { on: "heartbeat", at: T0 + 1_000, node: { state: "degraded" } },
      { on: "active", at: T0 + 1_000 },
    ]);
    expect(t.side().claims(ALPHA.address.toLowerCase())).toEqual({ inventory: [USDC], at: T0 + 1_000 });
    expect(t.side().claims(BETA.address)).toBeNull();
  });

  it("drop a degraded reason once the node is quoting again", async () => {
    const t = setup();
    const socket = await t.online();
    await t.heartbeat(socket, "degraded", { degraded: "slow rpc" });
    await t.heartbeat(socket, "quoting", { degraded: "stale" });
    expect(t.sessions.list()[0]).toMatchObject({ state: "quoting", degraded: null });
  });

  it("refresh the directory entry at most once a minute, with the state as shown and the uptime since", async () => {
    const t = setup();
    const socket = await t.online();
    const address = ALPHA.address.toLowerCase();
    vi.setSystemTime(T0 + 10_000);
    await t.heartbeat(socket);
    vi.setSystemTime(T0 + 59_999);
    await t.heartbeat(socket);
    expect(t.writes().map((w) => w.kind)).toEqual(["seen"]);
    t.flags.set(address, "inventory_mismatch");
    vi.setSystemTime(T0 + 60_000);
    await t.heartbeat(socket);
    const at = new Date(T0 + 60_000).toISOString();
    expect(t.writes().slice(1)).toEqual([
      { kind: "touch", address, state: "degraded", degraded: "inventory_mismatch", at },
      { kind: "uptime", address, day: "2025-01-01", connectedMs: 60_000, freshMs: 35_001 },
    ]);
    vi.setSystemTime(T0 + 61_000);
    await t.heartbeat(socket);
    expect(t.writes()).toHaveLength(3);
  });

  it("make the directory entry once the chain covered the node's claims, with its state and the uptime so far", async () => {
    const t = setup();
    const socket = await t.online();
    vi.setSystemTime(T0 + 8_000);
    await t.heartbeat(socket);
    vi.setSystemTime(T0 + 9_000);
    t.side().onCovered(ALPHA.address);
    const address = ALPHA.address.toLowerCase();
    const at = new Date(T0 + 9_000).toISOString();
    expect(t.writes().slice(1)).toEqual([
      { kind: "seen", address, name: "alpha", corridor: CORRIDOR, state: "quoting", at, create: true },
      { kind: "uptime", address, day: "2025-01-01", connectedMs: 8_000, freshMs: 0 },
    ]);
    // The next heartbeat write is a minute after this one.
    vi.setSystemTime(T0 + 61_000);
    await t.heartbeat(socket);
    expect(t.writes()).toHaveLength(3);
    vi.setSystemTime(T0 + 69_000);
    await t.heartbeat(socket);
    expect(t.writes().at(-2)).toMatchObject({ kind: "touch", at: new Date(T0 + 69_000).toISOString() });
  });

  it("survive hibernation: sessions restored from the object's sockets keep the node and what it reported", async () => {
    const t = setup();
    const socket = await t.online();
    await t.heartbeat(socket, "quoting");
    const unauthenticated = t.connect();
    const woken = new CorridorNodes(t.state, t.host, t.auctions);
    expect(woken.list()).toEqual(t.sessions.list());
    expect(woken.list()[0]?.inventory).toEqual([USDC]);
    expect(woken.closeUnauthenticated(T0)).toBe(T0 + 5_000);
    expect(unauthenticated.closed).toBeNull();
  });
});

describe("forgetting a socket", () => {
  it("gives the node's address, drops what it reported and writes the uptime it accrued", async () => {
    const t = setup();
    const socket = await t.online();
    await t.heartbeat(socket);
    expect(t.state.kv.size).toBe(1);
    vi.setSystemTime(T0 + 40_000);
    expect(t.sessions.gone(socket.ws)).toBe(ALPHA.address);
    expect(t.sessions.list()).toEqual([]);
    expect(t.state.kv.size).toBe(0);
    expect(t.writes().at(-1)).toEqual({
      kind: "uptime",
      address: ALPHA.address.toLowerCase(),
      day: "2025-01-01",
      connectedMs: 40_000,
      freshMs: 35_000,
    });
    expect(t.sessions.gone(socket.ws)).toBeNull();
  });

  it("gives nothing and writes nothing for a socket that never authenticated", () => {
    const t = setup();
    const socket = t.connect();
    expect(t.sessions.gone(socket.ws)).toBeNull();
    expect(t.writes()).toEqual([]);
  });

  it("closes a de-registered node's socket with 1008 and the reason given", async () => {
    const t = setup();
    const socket = await t.online();
    expect(t.sessions.close(ALPHA.address.toLowerCase(), "not_registered", "gone")).toBe(ALPHA.address.toLowerCase());
    expect(errorOf(socket)).toEqual({ type: "error", code: "not_registered", message: "gone" });
    expect(socket.closed).toEqual({ code: 1008, reason: "not_registered" });
    expect(t.sessions.close(ALPHA.address, "not_registered", "gone")).toBeNull();
  });
});

describe("replies handed to the live auctions", () => {
  const bid = { type: "bid", rfqId: "rfq_1", outputAmount: "1000000", signature: "0xsig" };

  it("hands bids, declines and signatures back with the node's session", async () => {
    const t = setup();
    const socket = await t.online();
    t.flags.set(ALPHA.address.toLowerCase(), "inventory_mismatch");
    expect(await t.receive(socket, bid)).toEqual({
      node: expect.objectContaining({ address: ALPHA.address, chainFlag: "inventory_mismatch" }),
      frame: bid,
    });
    const decline = { type: "decline", rfqId: "rfq_1", reason: "no_inventory" };
    expect(await t.receive(socket, decline)).toMatchObject({ frame: decline });
    const signed = { type: "signed", rfqId: "rfq_1", signature: "0xsig" };
    expect(await t.receive(socket, signed)).toMatchObject({ frame: signed });
  });

  it("hands a malformed reply to a live rfq back as rejected, keeping the node connected", async () => {
    const t = setup();
    const socket = await t.online();
    t.auctions.open("rfq_1", ALPHA.address);
    const reply = await t.receive(socket, { ...bid, outputAmount: "lots" });
    expect(reply).toMatchObject({ node: { address: ALPHA.address }, malformed: { rfqId: "rfq_1" } });
    expect(socket.closed).toBeNull();
  });

  it("closes a socket with 1008 bad_frame for a malformed frame that no live rfq explains", async () => {
    const t = setup();
    const socket = await t.online();
    expect(await t.receive(socket, { ...bid, outputAmount: "lots" })).toBeNull();
    expect(socket.closed).toEqual({ code: 1008, reason: "bad_frame" });
    const other = await t.online(BETA);
    await t.receive(other, "not json");
    expect(errorOf(other)).toMatchObject({ code: "bad_frame", message: "frames are JSON text" });
  });

  it("closes a socket with 1008 frame_too_large for a frame over 64 KiB", async () => {
    const t = setup();
    const socket = await t.online();
    await t.receive(socket, "x".repeat(64 * 1024 + 1));
    expect(socket.closed).toEqual({ code: 1008, reason: "frame_too_large" });
  });

  it("closes a socket with 1008 rate_limited past 50 frames a second, not counting first replies to rfqs it was asked", async () => {
    const t = setup();
    const socket = await t.online();
    for (let i = 0; i < 60; i++) t.auctions.open(`rfq_${i}`, ALPHA.address);
    for (let i = 0; i < 60; i++) await t.receive(socket, { ...bid, rfqId: `rfq_${i}` });
    expect(socket.closed).toBeNull();
    for (let i = 0; i < 49; i++) await t.heartbeat(socket);
    expect(socket.closed).toBeNull();
    await t.heartbeat(socket);
    expect(errorOf(socket)).toMatchObject({ code: "rate_limited" });
    expect(socket.closed).toEqual({ code: 1008, reason: "rate_limited" });
  });

  it("counts a reply the node was not asked for toward the flood limit", async () => {
    const t = setup();
    const socket = await t.online();
    // The auth frame was the first of this second.
    for (let i = 0; i < 49; i++) await t.receive(socket, bid);
    expect(socket.closed).toBeNull();
    expect(await t.receive(socket, bid)).toBeNull();
    expect(socket.closed).toEqual({ code: 1008, reason: "rate_limited" });
  });
});

describe("sending to nodes", () => {
  it("broadcasts to authenticated nodes only", async () => {
    const t = setup();
    const alpha = await t.online();
    const waiting = t.connect();
    t.sessions.broadcast({ type: "band", base: "USD", quote: "NGN", mid: 1, low: 1, high: 1, sources: 1, at: T0 });
    expect(types(alpha)).toContain("band");
    expect(types(waiting)).toEqual(["challenge"]);
  });

  it("sends to a node's current socket: the one that replaced the socket it was last reached on, none once it left", async () => {
    const t = setup();
    const frame = (quoteId: string) => ({ type: "execution", quoteId, status: "settled", txHash: null }) as const;
    const older = await t.online();
    t.sessions.send(ALPHA.address.toLowerCase(), frame("q_1"));
    const newer = await t.online();
    t.sessions.send(ALPHA.address, frame("q_2"));
    expect(older.sent("execution").map((f) => f.quoteId)).toEqual(["q_1"]);
    expect(newer.sent("execution").map((f) => f.quoteId)).toEqual(["q_2"]);
    t.sessions.gone(newer.ws);
    t.sessions.send(ALPHA.address, frame("q_3"));
    expect(newer.sent("execution").map((f) => f.quoteId)).toEqual(["q_2"]);
  });

  it("writes a node's state as shown when the relay's view of it changes, with the uptime counted so far", async () => {
    const t = setup();
    const socket = await t.online();
    vi.setSystemTime(T0 + 5_000);
    await t.heartbeat(socket);
    t.flags.set(ALPHA.address.toLowerCase(), "inventory_mismatch");
    t.side().onFlagChange(ALPHA.address, "inventory_mismatch");
    expect(t.writes().slice(1)).toMatchObject([
      { kind: "touch", state: "degraded", degraded: "inventory_mismatch", at: new Date(T0 + 5_000).toISOString() },
      { kind: "uptime", connectedMs: 5_000, freshMs: 0 },
    ]);
    t.flags.set(ALPHA.address.toLowerCase(), "has_code");
    t.side().onFlagChange(ALPHA.address, "has_code");
    expect(t.writes().slice(3)).toMatchObject([{ kind: "touch", state: "degraded", degraded: "has_code" }]);
    expect(t.writes().map((w) => w.kind)).toEqual(["seen", "touch", "uptime", "touch"]);
    expect(socket.closed).toBeNull();
  });
});
