import { describe, expect, it } from "vitest";
import { corridorState } from "../../src/ops/corridor-state";
import type { Probed } from "../../src/ops/deadline";
import { assessHealth, HEAD_STALE_SECONDS, type HealthProbes, OUTBOX_STALE_SECONDS } from "../../src/ops/health";

const NOW = 1_800_000_000_000;
const ok = <T>(value: T): Probed<T> => ({ ok: true, value, ms: 3 });
const down = (error = "timeout after 2500 ms"): Probed<never> => ({ ok: false, error, ms: 2500 });
const pause = { at: "2027-01-15T08:00:00.000Z", reason: "maintenance" };

/** A relay where everything answers and is fresh; each test spoils one part. */
function healthy(): HealthProbes {
  return {
    keeper: ok({ paused: null, followed: 2, wallets: [{ chainId: 31337, wallets: 4 }] }),
    chains: [{ chainId: 31337, name: "anvil", head: ok({ number: 120, time: NOW - 2_000 }) }],
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
    probes.chains.push({ chainId: 103, name: "solana", head: down("fetch failed") });
    probes.chains[0] = {
      chainId: 31337,
      name: "anvil",
      head: ok({ number: 1, time: NOW - (HEAD_STALE_SECONDS + 1) * 1000 }),
    };
    const h = assessHealth(probes, NOW);
    expect(h.status).toBe("degraded");
    expect(h.degraded).toEqual(["chain:31337", "chain:103"]);
    expect(h.chains[1]).toMatchObject({ reachable: false, head: null, error: "fetch failed" });
    expect(h.chains[0]?.error).toBe(`head is ${HEAD_STALE_SECONDS + 1} s old`);
  });

  it("takes a head without a time as fresh: the RPC answered", () => {
    const probes = healthy();
    probes.chains[0] = { chainId: 103, name: "solana", head: ok({ number: 9, time: null }) };
    expect(assessHealth(probes, NOW).chains[0]).toMatchObject({ status: "ok", headAgeSeconds: null });
  });

  it("names the keeper when it does not answer, or has no key for a chain", () => {
    const unreachable = { ...healthy(), keeper: down() };
    expect(assessHealth(unreachable, NOW)).toMatchObject({
      degraded: ["keeper"],
      keeper: { reachable: false, followed: null, error: "timeout after 2500 ms" },
    });
    const keyless = {
      ...healthy(),
      keeper: ok({ paused: null, followed: 0, wallets: [{ chainId: 103, wallets: 0 }] }),
    };
    expect(assessHealth(keyless, NOW)).toMatchObject({
      degraded: ["keeper"],
      keeper: { error: "no keeper key for chain 103" },
    });
  });

  it("lists pauses without calling the relay degraded", () => {
    const probes = healthy();
    probes.keeper = ok({ paused: pause, followed: 0, wallets: [{ chainId: 31337, wallets: 1 }] });
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
