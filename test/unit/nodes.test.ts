import { describe, expect, it } from "vitest";
import { FrameLimiter } from "../../src/nodes/frame-limiter";
import { isFresh, mergeNodes, type NodeSession, shownState } from "../../src/nodes/nodes";

const base = (over: Partial<NodeSession>): NodeSession => ({
  address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  publicKey: "0x04",
  name: "alpha",
  version: "1.0.0",
  region: null,
  signerType: "keyfile",
  ed25519Key: null,
  corridor: { chainId: 1, baseToken: "a", quoteToken: "b" },
  connectedAt: 1_000,
  lastHeartbeat: 5_000,
  state: "quoting",
  degraded: null,
  inventory: [],
  chains: [],
  ...over,
});

describe("isFresh", () => {
  it("holds for 35 s after a heartbeat, and never without one", () => {
    expect(isFresh(0, 35_000)).toBe(true);
    expect(isFresh(0, 35_001)).toBe(false);
    expect(isFresh(null, 0)).toBe(false);
  });
});

describe("mergeNodes", () => {
  it("makes one entry per address across corridors, newest heartbeat winning", () => {
    const [node, ...rest] = mergeNodes(
      [
        base({
          corridor: { chainId: 2, baseToken: "c", quoteToken: "d" },
          lastHeartbeat: 9_000,
          state: "degraded",
          degraded: "slow",
          connectedAt: 3_000,
        }),
        base({ address: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8", ed25519Key: "Sol1111" }),
      ],
      10_000,
    );
    expect(rest).toEqual([]);
    expect(node).toMatchObject({
      state: "degraded",
      degraded: "slow",
      fresh: true,
      solanaAddress: "Sol1111",
      connectedAt: new Date(1_000).toISOString(),
      lastHeartbeat: new Date(9_000).toISOString(),
    });
    expect(node?.corridors.map((c) => c.chainId)).toEqual([1, 2]);
  });

  it("merges inventory per chain and token, the newest report first", () => {
    const [node] = mergeNodes(
      [
        base({ lastHeartbeat: 1, inventory: [{ chainId: 1, token: "0xAA", balance: "1", allowance: "1" }] }),
        base({
          lastHeartbeat: 2,
          corridor: { chainId: 1, baseToken: "x", quoteToken: "y" },
          inventory: [
            { chainId: 1, token: "0xaa", balance: "2", allowance: "2" },
            { chainId: 1, token: "0xbb", balance: "3", allowance: "3" },
          ],
        }),
      ],
      10,
    );
    expect(node?.inventory.map((i) => i.balance)).toEqual(["2", "3"]);
  });

  it("keeps apart Solana mints that differ only in case: base58 is case-sensitive", () => {
    const mint = "So11111111111111111111111111111111111111112";
    const other = "sO11111111111111111111111111111111111111112";
    const [node] = mergeNodes(
      [
        base({
          inventory: [
            { chainId: 900, token: mint, balance: "1", allowance: "0" },
            { chainId: 900, token: other, balance: "2", allowance: "0" },
          ],
        }),
      ],
      10,
    );
    expect(node?.inventory.map((i) => i.token)).toEqual([mint, other]);
  });

  it("shows a node degraded with inventory_mismatch when any corridor found its claims untrue", () => {
    const [node] = mergeNodes(
      [
        base({ lastHeartbeat: 9_000, corridor: { chainId: 2, baseToken: "c", quoteToken: "d" } }),
        base({ lastHeartbeat: 5_000, chainFlag: "inventory_mismatch" }),
      ],
      10_000,
    );
    expect(node).toMatchObject({ state: "degraded", degraded: "inventory_mismatch", fresh: true });
  });

  it("shows a node degraded with has_code when any corridor found code at its address, before a mismatch", () => {
    const [node] = mergeNodes(
      [
        base({ lastHeartbeat: 9_000, chainFlag: "inventory_mismatch" }),
        base({
          lastHeartbeat: 5_000,
          chainFlag: "has_code",
          corridor: { chainId: 2, baseToken: "c", quoteToken: "d" },
        }),
      ],
      10_000,
    );
    expect(node).toMatchObject({ state: "degraded", degraded: "has_code", fresh: true });
  });

  it("shows account_owner_changed before a mismatch and after has_code", () => {
    const other = { chainId: 2, baseToken: "c", quoteToken: "d" };
    const shown = (...flags: ("inventory_mismatch" | "has_code" | "account_owner_changed")[]) =>
      mergeNodes(
        flags.map((chainFlag, i) => base({ lastHeartbeat: 9_000 - i, chainFlag, corridor: { ...other, chainId: i } })),
        10_000,
      )[0]?.degraded;
    expect(shown("inventory_mismatch", "account_owner_changed")).toBe("account_owner_changed");
    expect(shown("account_owner_changed", "has_code")).toBe("has_code");
  });

  it("shows account_missing before a mismatch and after account_owner_changed", () => {
    const other = { chainId: 2, baseToken: "c", quoteToken: "d" };
    const shown = (...flags: ("inventory_mismatch" | "account_missing" | "account_owner_changed")[]) =>
      mergeNodes(
        flags.map((chainFlag, i) => base({ lastHeartbeat: 9_000 - i, chainFlag, corridor: { ...other, chainId: i } })),
        10_000,
      )[0]?.degraded;
    expect(shown("inventory_mismatch", "account_missing")).toBe("account_missing");
    expect(shown("account_missing", "account_owner_changed")).toBe("account_owner_changed");
    expect(shown("account_missing")).toBe("account_missing");
  });

  it("leaves solanaAddress out until a key was proved", () => {
    const [node] = mergeNodes([base({})], 6_000);
    expect(node && "solanaAddress" in node).toBe(false);
  });
});

describe("shownState", () => {
  it("keeps the heartbeat's state, and its reason only while degraded", () => {
    expect(shownState("quoting", null, null)).toEqual({ state: "quoting", degraded: null });
    expect(shownState("degraded", "low_gas", null)).toEqual({ state: "degraded", degraded: "low_gas" });
    expect(shownState("paused", "ignored", null)).toEqual({ state: "paused", degraded: null });
  });

  it("shows what the chain holds against the node over whatever the node said", () => {
    for (const state of ["quoting", "degraded", "paused"] as const) {
      for (const flag of ["inventory_mismatch", "has_code"] as const) {
        expect(shownState(state, "low_gas", flag)).toEqual({ state: "degraded", degraded: flag });
      }
    }
  });
});

describe("FrameLimiter", () => {
  it("allows 50 frames a second and refuses the 51st", () => {
    const limiter = new FrameLimiter();
    for (let i = 0; i < 50; i++) expect(limiter.allow(1_000)).toBe(true);
    expect(limiter.allow(1_999)).toBe(false);
    expect(limiter.allow(2_000)).toBe(true);
  });
});
