import { describe, expect, it } from "vitest";
import { corridorState } from "../../src/ops/corridor-state";
import type { Probed } from "../../src/ops/deadline";
import {
  assessHealth,
  type ChainProbes,
  HEAD_STALE_SECONDS,
  type HealthProbes,
  OUTBOX_STALE_SECONDS,
} from "../../src/ops/health";

const NOW = 1_800_000_000_000;
const ok = <T>(value: T): Probed<T> => ({ ok: true, value, ms: 3 });
const down = (error = "timeout after 2500 ms"): Probed<never> => ({ ok: false, error, ms: 2500 });
const pause = { at: "2027-01-15T08:00:00.000Z", reason: "maintenance" };

const KEEPER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const books = { fills: 0, spent: 0n, charged: 0n, margin: 0n, unpriced: 0, medianSpent: null, capped: false };

/** A chain that answers, whose keeper has funds and whose FeeController agrees with the configuration. */
function chain(chainId: number, name: string, head: ChainProbes["head"]): ChainProbes {
  return {
    chainId,
    name,
    head,
    books: ok(books),
    balance: ok(10n ** 18n),
    feeBps: ok([{ symbol: "USDC", address: "0xusdc", bps: 10 }]),
    configuredFeeBps: 10,
    floorFills: 20,
  };
}

const keeperOf = (paused: typeof pause | null, chainId: number, wallets: number) =>
  ok({ paused, followed: 0, wallets: [{ chainId, wallets, addresses: Array(wallets).fill(KEEPER) }] });

/** A relay where everything answers and is fresh; each test spoils one part. */
function healthy(): HealthProbes {
  return {
    keeper: ok({ paused: null, followed: 2, wallets: [{ chainId: 31337, wallets: 1, addresses: [KEEPER] }] }),
    chains: [chain(31337, "anvil", ok({ number: 120, time: NOW - 2_000 }))],
    oracle: ok({ active: true, bands: [{ corridor: "c1", at: NOW - 5_000 }], unavailable: [] }),
    corridors: [
      { key: "c1", status: ok({ paused: null, nodes: 2, outbox: { queued: 1, oldestAt: NOW - 1_000 }, fault: null }) },
    ],
    openLimitOrders: ok(7),
  };
}

describe("the health record", () => {
  it("is ok with every part ok, with ages in seconds", () => {
    const h = assessHealth(healthy(), NOW);
    expect(h).toMatchObject({ status: "ok", degraded: [], paused: [], checkedAt: new Date(NOW).toISOString() });
    expect(h.chains[0]).toMatchObject({ status: "ok", reachable: true, head: 120, headAgeSeconds: 2, error: null });
    expect(h.oracle.bands).toEqual([{ corridor: "c1", ageSeconds: 5 }]);
    expect(h.corridors[0]).toMatchObject({ state: "quoting", nodes: 2, outbox: { queued: 1, oldestAgeSeconds: 1 } });
    expect(h.outbox).toEqual({ status: "ok", queued: 1, oldestAgeSeconds: 1 });
    expect(h.limitOrders).toMatchObject({ status: "ok", open: 7 });
    expect(h.keeper).toMatchObject({ status: "ok", reachable: true, followed: 2 });
  });

  it("names a chain whose RPC does not answer, and one whose head is stale", () => {
    const probes = healthy();
    probes.chains.push({ ...chain(103, "solana", down("fetch failed")), balance: down(), feeBps: down() });
    probes.chains[0] = chain(31337, "anvil", ok({ number: 1, time: NOW - (HEAD_STALE_SECONDS + 1) * 1000 }));
    const h = assessHealth(probes, NOW);
    expect(h.status).toBe("degraded");
    expect(h.degraded).toEqual(["chain:31337", "chain:103"]);
    expect(h.chains[1]).toMatchObject({ reachable: false, head: null, error: "fetch failed" });
    expect(h.chains[0]?.error).toBe(`head is ${HEAD_STALE_SECONDS + 1} s old`);
  });

  it("takes a head without a time as fresh: the RPC answered", () => {
    const probes = healthy();
    probes.chains[0] = chain(103, "solana", ok({ number: 9, time: null }));
    expect(assessHealth(probes, NOW).chains[0]).toMatchObject({ status: "ok", headAgeSeconds: null });
  });

  it("names the keeper when it does not answer, or has no key for a chain", () => {
    const unreachable = { ...healthy(), keeper: down() };
    expect(assessHealth(unreachable, NOW)).toMatchObject({
      degraded: ["keeper"],
      keeper: { reachable: false, followed: null, error: "timeout after 2500 ms" },
    });
    const keyless = { ...healthy(), keeper: keeperOf(null, 103, 0) };
    expect(assessHealth(keyless, NOW)).toMatchObject({
      degraded: ["keeper"],
      keeper: { error: "no keeper key for chain 103" },
    });
  });

  it("lists pauses without calling the relay degraded", () => {
    const probes = healthy();
    probes.keeper = keeperOf(pause, 31337, 1);
    probes.corridors[0] = {
      key: "c1",
      status: ok({ paused: pause, nodes: 2, outbox: { queued: 0, oldestAt: null }, fault: null }),
    };
    const h = assessHealth(probes, NOW);
    expect(h).toMatchObject({ status: "ok", degraded: [], paused: ["keeper", "corridor:c1"] });
    expect(h.keeper.status).toBe("paused");
    expect(h.corridors[0]?.state).toBe("paused");
  });

  it("names the outbox when a corridor's oldest queued write is over its bound", () => {
    const probes = healthy();
    const oldestAt = NOW - (OUTBOX_STALE_SECONDS + 5) * 1000;
    probes.corridors.push({
      key: "c2",
      status: ok({ paused: null, nodes: 1, outbox: { queued: 40, oldestAt }, fault: null }),
    });
    const h = assessHealth(probes, NOW);
    expect(h.degraded).toEqual(["outbox"]);
    expect(h.outbox).toEqual({ status: "degraded", queued: 41, oldestAgeSeconds: OUTBOX_STALE_SECONDS + 5 });
  });

  it("names a corridor that does not answer or has no fresh resolver", () => {
    const probes = healthy();
    probes.corridors = [
      { key: "c1", status: down() },
      { key: "c2", status: ok({ paused: null, nodes: 0, outbox: { queued: 0, oldestAt: null }, fault: null }) },
    ];
    const h = assessHealth(probes, NOW);
    expect(h.degraded).toEqual(["corridor:c1", "corridor:c2"]);
    expect(h.corridors.map((c) => [c.degraded, c.nodes, c.outbox])).toEqual([
      ["unreachable", null, null],
      ["no_nodes", 0, { queued: 0, oldestAgeSeconds: null }],
    ]);
  });

  it("names the oracle when it polls but a band is stale or missing; an idle oracle's old bands are fine", () => {
    const stale = healthy();
    stale.oracle = ok({
      active: true,
      bands: [
        { corridor: "c1", at: NOW - 61_000 },
        { corridor: "c2", at: null },
      ],
      unavailable: ["luno"],
    });
    expect(assessHealth(stale, NOW)).toMatchObject({ degraded: ["oracle"], oracle: { unavailable: ["luno"] } });
    const idle = healthy();
    idle.oracle = ok({ active: false, bands: [{ corridor: "c1", at: NOW - 3_600_000 }], unavailable: [] });
    expect(assessHealth(idle, NOW)).toMatchObject({
      status: "ok",
      oracle: { active: false, bands: [{ ageSeconds: 3600 }] },
    });
    expect(assessHealth({ ...healthy(), oracle: down() }, NOW).degraded).toEqual(["oracle"]);
  });

  it("names limit orders when D1 does not answer the count", () => {
    const h = assessHealth({ ...healthy(), openLimitOrders: down("D1_ERROR") }, NOW);
    expect(h).toMatchObject({ degraded: ["limitOrders"], limitOrders: { open: null, error: "D1_ERROR" } });
  });
});

describe("a chain's keeper books, funds and protocol fee", () => {
  const rpc = ok({ number: 120, time: NOW - 2_000 });
  const window = (medianSpent: bigint | null, over: Partial<typeof books> = {}) =>
    ok({ ...books, fills: 4, spent: 800n, charged: 1_000n, margin: 200n, unpriced: 1, medianSpent, ...over });

  it("shows the margin over the window as strings, the balance and the fills it still pays for", () => {
    const probe = { ...chain(31337, "anvil", rpc), books: window(200n), balance: ok(10_000n) };
    const h = assessHealth({ ...healthy(), chains: [probe] }, NOW);
    expect(h.status).toBe("ok");
    expect(h.chains[0]).toMatchObject({
      status: "ok",
      books: { fills: 4, spent: "800", charged: "1000", margin: "200", unpriced: 1, capped: false },
      keeper: { balance: "10000", fillsLeft: 50, floorFills: 20 },
      protocolFee: { bps: 10, onChain: [{ token: "USDC", bps: 10 }] },
      error: null,
    });
  });

  it("shows a negative margin without calling the chain degraded", () => {
    const probe = { ...chain(31337, "anvil", rpc), books: window(200n, { charged: 500n, margin: -300n }) };
    expect(assessHealth({ ...healthy(), chains: [probe] }, NOW).chains[0]).toMatchObject({
      status: "ok",
      books: { margin: "-300" },
    });
  });

  it("names the chain when the balance pays for fewer fills than keeperFloorFills", () => {
    const probe = { ...chain(31337, "anvil", rpc), books: window(200n), balance: ok(3_999n) };
    const h = assessHealth({ ...healthy(), chains: [probe] }, NOW);
    expect(h.degraded).toEqual(["chain:31337"]);
    expect(h.chains[0]).toMatchObject({
      status: "degraded",
      keeper: { fillsLeft: 19 },
      error: "the keeper's balance pays for 19 more fills, under keeperFloorFills 20",
    });
    const atFloor = { ...probe, balance: ok(4_000n) };
    expect(assessHealth({ ...healthy(), chains: [atFloor] }, NOW).chains[0]?.status).toBe("ok");
  });

  it("leaves fillsLeft null without a fill in the window, or without the keeper's addresses", () => {
    const quiet = { ...chain(31337, "anvil", rpc), balance: ok(1n) };
    expect(assessHealth({ ...healthy(), chains: [quiet] }, NOW).chains[0]).toMatchObject({
      status: "ok",
      keeper: { balance: "1", fillsLeft: null },
    });
    const unknown = { ...chain(31337, "anvil", rpc), books: window(200n), balance: ok(null) };
    expect(assessHealth({ ...healthy(), chains: [unknown] }, NOW).chains[0]).toMatchObject({
      status: "ok",
      keeper: { balance: null, fillsLeft: null },
    });
  });

  it("names a FeeController that charges other bps than fee.bps on any of the chain's tokens", () => {
    const probe = {
      ...chain(31337, "anvil", rpc),
      feeBps: ok([
        { symbol: "cNGN", address: "0xcngn", bps: 10 },
        { symbol: "USDC", address: "0xusdc", bps: 25 },
      ]),
    };
    const h = assessHealth({ ...healthy(), chains: [probe] }, NOW);
    expect(h.degraded).toEqual(["chain:31337"]);
    expect(h.chains[0]).toMatchObject({
      protocolFee: {
        bps: 10,
        onChain: [
          { token: "cNGN", bps: 10 },
          { token: "USDC", bps: 25 },
        ],
      },
      error: "fee.bps 10 differs from the FeeController's 25 for USDC",
    });
  });

  it("has nothing to compare on a chain whose contracts keep no bps (Solana)", () => {
    const probe = { ...chain(103, "solana", rpc), feeBps: ok(null) };
    expect(assessHealth({ ...healthy(), chains: [probe] }, NOW).chains[0]).toMatchObject({
      status: "ok",
      protocolFee: { bps: 10, onChain: null },
    });
  });

  it("names each read that failed on an answering chain; a dead RPC is named once", () => {
    const probe = {
      ...chain(31337, "anvil", rpc),
      books: down("D1_ERROR"),
      balance: down("eth_getBalance: boom"),
      feeBps: down("call reverted"),
    };
    expect(assessHealth({ ...healthy(), chains: [probe] }, NOW).chains[0]).toMatchObject({
      status: "degraded",
      books: null,
      keeper: { balance: null, fillsLeft: null },
      protocolFee: { onChain: null },
      error: "keeper balance: eth_getBalance: boom; FeeController: call reverted; keeper books: D1_ERROR",
    });
    const dead = { ...chain(31337, "anvil", down("fetch failed")), balance: down(), feeBps: down() };
    expect(assessHealth({ ...healthy(), chains: [dead] }, NOW).chains[0]?.error).toBe("fetch failed");
  });
});

describe("a corridor's state", () => {
  const idle = { outbox: { queued: 0, oldestAt: null }, fault: null };
  const fault = { reason: "relay:fee_mismatch", quoteId: "q_1", at: new Date(NOW).toISOString() };

  it("is paused, degraded with why, or quoting", () => {
    expect(corridorState(null)).toEqual({ state: "degraded", degraded: "unreachable" });
    expect(corridorState({ ...idle, paused: pause, nodes: 0 })).toEqual({ state: "paused", degraded: null });
    expect(corridorState({ ...idle, paused: null, nodes: 0 })).toEqual({ state: "degraded", degraded: "no_nodes" });
    expect(corridorState({ ...idle, paused: null, nodes: 1 })).toEqual({ state: "quoting", degraded: null });
  });

  it("is degraded with the relay's reason while its fills fail for it, and the health check names it", () => {
    expect(corridorState({ ...idle, fault, paused: null, nodes: 3 })).toEqual({
      state: "degraded",
      degraded: "relay:fee_mismatch",
    });
    const probes = healthy();
    probes.corridors = [{ key: "c1", status: ok({ ...idle, fault, paused: null, nodes: 3 }) }];
    const h = assessHealth(probes, NOW);
    expect(h.degraded).toEqual(["corridor:c1"]);
    expect(h.corridors[0]).toMatchObject({ state: "degraded", degraded: "relay:fee_mismatch" });
  });
});
