import { describe, expect, it } from "vitest";
import type { ProvedKeys } from "../../src/chains/adapter";
import { type InventoryCheck, InventoryChecks, READ_EVERY_MS } from "../../src/nodes/inventory-checks";
import { chainCovers, claimsCovered, claimsExceed } from "../../src/nodes/inventory-rules";
import type { InventoryEntry } from "../../src/protocol/node-frames";
import { fakeInventoryChecksHost } from "../support/fake-inventory-checks-host";

const USDC = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0";
const CNGN = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const entry = (token: string, balance: bigint, allowance = balance): InventoryEntry => ({
  chainId: 31337,
  token,
  balance: balance.toString(),
  allowance: allowance.toString(),
});
const read = (...entries: InventoryEntry[]): InventoryCheck["read"] => ({ at: 0, entries, hasCode: false });

describe("chainCovers", () => {
  it("says no before any read completed", () => {
    expect(chainCovers(null, USDC, 1n, same)).toBe(false);
  });

  it("leaves a node to its heartbeat while every read failed", () => {
    expect(chainCovers({ read: null, reviewed: false, mismatch: false }, USDC, 10n ** 30n, same)).toBe(true);
  });

  it("needs the amount in both the balance and the allowance of the last read", () => {
    const check = { read: read(entry(USDC.toLowerCase(), 100n, 50n)), reviewed: true, mismatch: false };
    expect(chainCovers(check, USDC, 50n, same)).toBe(true);
    expect(chainCovers(check, USDC, 51n, same)).toBe(false);
    expect(chainCovers(check, CNGN, 1n, same)).toBe(false);
  });

  it("says no for a node whose address had code at the last read, whatever it holds", () => {
    const held = read(entry(USDC, 100n));
    const check = { read: held && { ...held, hasCode: true }, reviewed: true, mismatch: false };
    expect(chainCovers(check, USDC, 1n, same)).toBe(false);
  });

  it("says no for a node one of whose accounts was missing at the last read, whatever the other holds", () => {
    // Its USDC account holds 100; its cNGN account, the one a sale of cNGN is paid into, does not exist.
    const held = read(entry(USDC, 100n), entry(CNGN, 0n));
    const missing = { read: held && { ...held, accountMissing: true }, reviewed: true, mismatch: false };
    expect(chainCovers(missing, USDC, 1n, same)).toBe(false);
    const present = { read: held && { ...held, accountMissing: false }, reviewed: true, mismatch: false };
    expect(chainCovers(present, USDC, 1n, same)).toBe(true);
  });
});

describe("claimsExceed", () => {
  const held = read(entry(USDC, 100n, 80n), entry(CNGN, 0n));

  it("holds when a claimed balance or allowance is above the chain's", () => {
    expect(claimsExceed([entry(USDC, 101n, 80n)], held, same)).toBe(true);
    expect(claimsExceed([entry(USDC.toLowerCase(), 100n, 81n)], held, same)).toBe(true);
    expect(claimsExceed([entry(CNGN, 1n)], held, same)).toBe(true);
  });

  it("does not hold for claims at or under the chain's, or for tokens the read did not cover", () => {
    expect(claimsExceed([entry(USDC, 100n, 80n), entry(CNGN, 0n)], held, same)).toBe(false);
    expect(claimsExceed([entry(USDC, 1n)], held, same)).toBe(false);
    expect(claimsExceed([entry("0x00000000000000000000000000000000000000d1", 10n ** 30n)], held, same)).toBe(false);
    expect(claimsExceed([{ ...entry(USDC, 10n ** 30n), chainId: 1 }], held, same)).toBe(false);
    expect(claimsExceed([entry(USDC, 10n ** 30n)], null, same)).toBe(false);
  });
});

describe("claimsCovered", () => {
  const held = read(entry(USDC, 100n, 80n), entry(CNGN, 0n));

  it("holds when the node claims some of a token the read shows it holding, and nothing above the read", () => {
    expect(claimsCovered([entry(USDC, 100n, 80n), entry(CNGN, 0n)], held, same)).toBe(true);
    expect(claimsCovered([entry(USDC.toLowerCase(), 1n)], held, same)).toBe(true);
  });

  it("does not hold for claims above the read, claims of nothing, tokens the read did not cover, or no read", () => {
    expect(claimsCovered([entry(USDC, 101n, 80n)], held, same)).toBe(false);
    expect(claimsCovered([entry(USDC, 50n), entry(CNGN, 1n)], held, same)).toBe(false);
    expect(claimsCovered([], held, same)).toBe(false);
    expect(claimsCovered([entry(USDC, 0n), entry(CNGN, 0n)], held, same)).toBe(false);
    expect(claimsCovered([entry(USDC, 10n, 0n)], held, same)).toBe(false);
    expect(claimsCovered([entry("0x00000000000000000000000000000000000000d1", 1n)], held, same)).toBe(false);
    expect(claimsCovered([{ ...entry(USDC, 1n), chainId: 1 }], held, same)).toBe(false);
    expect(claimsCovered([entry(USDC, 1n)], null, same)).toBe(false);
  });
});

const NODE: ProvedKeys = {
  address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  publicKey: "0x04",
  ed25519Key: null,
};

function setup() {
  const fake = fakeInventoryChecksHost({ tokens: [CNGN, USDC], sameToken: same });
  return { ...fake, checks: new InventoryChecks(fake.host) };
}

describe("InventoryChecks", () => {
  it("does not let a node be asked until its first read completes, then follows the read", async () => {
    const t = setup();
    t.checks.restart(NODE, 0);
    expect(t.calls.map((c) => [c.node.address, c.tokens])).toEqual([[NODE.address, [CNGN, USDC]]]);
    expect(t.checks.covers(NODE.address, USDC, 1n)).toBe(false);
    await t.answer([entry(USDC, 5_000n), entry(CNGN, 0n)]);
    expect(t.checks.covers(NODE.address.toLowerCase(), USDC, 5_000n)).toBe(true);
    expect(t.checks.covers(NODE.address, USDC, 5_001n)).toBe(false);
    expect(t.checks.covers(NODE.address, CNGN, 1n)).toBe(false);
  });

  it("reads a node at most once per 10 s, and never twice at once", async () => {
    const t = setup();
    t.checks.restart(NODE, 0);
    t.checks.heard(NODE, READ_EVERY_MS + 1);
    expect(t.calls).toHaveLength(1);
    await t.answer([entry(USDC, 1n)]);
    t.checks.heard(NODE, READ_EVERY_MS - 1);
    expect(t.calls).toHaveLength(1);
    t.checks.heard(NODE, READ_EVERY_MS);
    expect(t.calls).toHaveLength(2);
  });

  it("keeps the last good read when a read fails", async () => {
    const t = setup();
    t.checks.restart(NODE, 0);
    await t.answer([entry(USDC, 100n)]);
    t.checks.heard(NODE, READ_EVERY_MS);
    await t.answer(new Error("RPC down"));
    expect(t.checkOf(NODE.address)?.read).toEqual({ at: 0, entries: [entry(USDC, 100n)], hasCode: false });
    expect(t.checks.covers(NODE.address, USDC, 101n)).toBe(false);
  });

  it("leaves a node to its heartbeat when no read ever succeeded, until one does", async () => {
    const t = setup();
    t.checks.restart(NODE, 0);
    await t.answer(new Error("RPC down"));
    expect(t.checks.covers(NODE.address, USDC, 10n ** 30n)).toBe(true);
    t.checks.heard(NODE, READ_EVERY_MS);
    await t.answer([entry(USDC, 0n)]);
    expect(t.checks.covers(NODE.address, USDC, 1n)).toBe(false);
  });

  it("flags claims above a read made as they were heard, and clears them once true, telling each change once", async () => {
    const t = setup();
    t.checks.restart(NODE, 0);
    t.claim(1, entry(USDC, 5_000n));
    t.checks.heard(NODE, 1);
    await t.answer([entry(USDC, 0n), entry(CNGN, 0n)]);
    expect(t.checks.flag(NODE.address)).toBe("inventory_mismatch");
    t.checks.heard(NODE, 2);
    expect(t.changes).toEqual([[NODE.address.toLowerCase(), "inventory_mismatch"]]);

    t.claim(3, entry(USDC, 0n));
    t.checks.heard(NODE, 3);
    expect(t.checks.flag(NODE.address)).toBeNull();
    expect(t.changes).toEqual([
      [NODE.address.toLowerCase(), "inventory_mismatch"],
      [NODE.address.toLowerCase(), null],
    ]);
  });

  it("tells the host once per session that a read covered current claims, never for claims it does not cover", async () => {
    const t = setup();
    t.checks.restart(NODE, 0);
    t.claim(1, entry(USDC, 5_000n));
    t.checks.heard(NODE, 1);
    await t.answer([entry(USDC, 0n), entry(CNGN, 0n)]);
    t.claim(2, entry(USDC, 0n));
    t.checks.heard(NODE, 2);
    expect(t.covered).toEqual([]);

    t.claim(READ_EVERY_MS + 1, entry(USDC, 700n));
    t.checks.heard(NODE, READ_EVERY_MS + 1);
    await t.answer([entry(USDC, 700n), entry(CNGN, 0n)]);
    expect(t.covered).toEqual([NODE.address.toLowerCase()]);
    t.checks.heard(NODE, READ_EVERY_MS + 2);
    expect(t.covered).toHaveLength(1);

    // A new session is covered afresh.
    t.checks.restart(NODE, 3 * READ_EVERY_MS);
    t.claim(3 * READ_EVERY_MS + 1, entry(USDC, 700n));
    await t.answer([entry(USDC, 700n)]);
    expect(t.covered).toEqual([NODE.address.toLowerCase(), NODE.address.toLowerCase()]);
  });

  it("holds the first heartbeat after auth against the read that auth started", async () => {
    const t = setup();
    t.checks.restart(NODE, 0);
    await t.answer([entry(USDC, 0n)]);
    expect(t.checks.flag(NODE.address)).toBeNull();
    t.claim(5, entry(USDC, 5_000n));
    t.checks.heard(NODE, 5);
    expect(t.checks.flag(NODE.address)).toBe("inventory_mismatch");
  });

  it("does not flag claims that grew after the last read (a fill brought tokens in) before a read made with them", async () => {
    const t = setup();
    t.claim(0, entry(CNGN, 100n));
    t.checks.restart(NODE, 0);
    await t.answer([entry(CNGN, 100n)]);
    t.claim(5_000, entry(CNGN, 200n));
    t.checks.heard(NODE, 5_000);
    expect(t.checks.flag(NODE.address)).toBeNull();

    t.checks.heard(NODE, READ_EVERY_MS);
    await t.answer([entry(CNGN, 200n)]);
    expect(t.checks.flag(NODE.address)).toBeNull();
    t.claim(2 * READ_EVERY_MS, entry(CNGN, 300n));
    t.checks.heard(NODE, 2 * READ_EVERY_MS);
    await t.answer([entry(CNGN, 200n)]);
    expect(t.checks.flag(NODE.address)).toBe("inventory_mismatch");
  });

  it("clears a mismatch when a later read shows the claims held", async () => {
    const t = setup();
    t.claim(0, entry(USDC, 5_000n));
    t.checks.restart(NODE, 0);
    await t.answer([entry(USDC, 0n)]);
    expect(t.checks.flag(NODE.address)).toBe("inventory_mismatch");
    t.claim(READ_EVERY_MS, entry(USDC, 5_000n));
    t.checks.heard(NODE, READ_EVERY_MS);
    await t.answer([entry(USDC, 5_000n)]);
    expect(t.checks.flag(NODE.address)).toBeNull();
  });

  it("keeps a read that completes after the node left for its return, and shows it nothing meanwhile", async () => {
    const t = setup();
    t.checks.restart(NODE, 0);
    const first = t.calls[0];
    t.checks.forget(NODE.address);
    first?.answer([entry(USDC, 1n)]);
    await Promise.resolve();
    await Promise.resolve();
    expect(t.checkOf(NODE.address)).toBeNull();
    t.checks.restart(NODE, 1);
    expect(t.calls).toHaveLength(1);
    expect(t.checkOf(NODE.address)?.read?.entries).toEqual([entry(USDC, 1n)]);

    // Past the 10 s the node is read again when it authenticates.
    t.checks.restart(NODE, READ_EVERY_MS);
    await t.answer([entry(USDC, 7n)]);
    expect(t.checkOf(NODE.address)?.read?.entries).toEqual([entry(USDC, 7n)]);
  });

  it("lets a node that comes back within 10 s of a failed read be asked on its heartbeat, as before it left", async () => {
    const t = setup();
    t.checks.restart(NODE, 0);
    t.checks.forget(NODE.address);
    await t.answer(new Error("RPC down"));
    t.checks.restart(NODE, 1_000);
    expect(t.calls).toHaveLength(1);
    expect(t.checkOf(NODE.address)).toEqual({ read: null, reviewed: false, mismatch: false });
    expect(t.checks.covers(NODE.address, USDC, 1n)).toBe(true);
  });

  it("reads a node that authenticates again and again no more often than one that heartbeats", async () => {
    const t = setup();
    for (let i = 0; i < 100; i++) {
      t.checks.restart(NODE, i * 50);
      t.checks.forget(NODE.address);
      if (i === 0) await t.answer([entry(USDC, 9n)]);
    }
    // 100 re-authentications over 5 s: the first one read the chain, the rest waited for its 10 s.
    expect(t.calls).toHaveLength(1);
    // The read serves the node when it comes back within the 10 s, so an honest reconnect is asked at once.
    t.checks.restart(NODE, 5_000);
    expect(t.checks.covers(NODE.address, USDC, 9n)).toBe(true);
    t.checks.restart(NODE, READ_EVERY_MS);
    expect(t.calls).toHaveLength(2);
  });

  it("flags a node whose address has code, above a mismatch, and clears it once a read finds none", async () => {
    const t = setup();
    t.claim(0, entry(USDC, 5_000n));
    t.checks.restart(NODE, 0);
    await t.answer({ entries: [entry(USDC, 0n)], hasCode: true });
    expect(t.checks.flag(NODE.address)).toBe("has_code");
    expect(t.checks.covers(NODE.address, USDC, 0n)).toBe(false);

    // A failed read keeps the code in view; a read with the claims true and no code clears both.
    t.checks.heard(NODE, READ_EVERY_MS);
    await t.answer(new Error("RPC down"));
    expect(t.checks.flag(NODE.address)).toBe("has_code");
    t.claim(2 * READ_EVERY_MS, entry(USDC, 0n));
    t.checks.heard(NODE, 2 * READ_EVERY_MS);
    await t.answer({ entries: [entry(USDC, 0n)], hasCode: false });
    expect(t.checks.flag(NODE.address)).toBeNull();
    expect(t.checks.covers(NODE.address, USDC, 0n)).toBe(true);
    expect(t.changes).toEqual([
      [NODE.address.toLowerCase(), "has_code"],
      [NODE.address.toLowerCase(), null],
    ]);
  });

  it("flags a node one of whose accounts another key owns, not asked whatever it holds, until it is its own again", async () => {
    const t = setup();
    t.claim(0, entry(USDC, 5_000n));
    t.checks.restart(NODE, 0);
    await t.answer({ entries: [entry(USDC, 5_000n)], hasCode: false, ownerChanged: true });
    expect(t.checks.flag(NODE.address)).toBe("account_owner_changed");
    expect(t.checks.covers(NODE.address, USDC, 1n)).toBe(false);
    t.checks.heard(NODE, READ_EVERY_MS);
    await t.answer({ entries: [entry(USDC, 5_000n)], hasCode: false, ownerChanged: false });
    expect(t.checks.flag(NODE.address)).toBeNull();
    expect(t.checks.covers(NODE.address, USDC, 1n)).toBe(true);
    expect(t.changes).toEqual([
      [NODE.address.toLowerCase(), "account_owner_changed"],
      [NODE.address.toLowerCase(), null],
    ]);
  });

  it("flags a node one of whose accounts is missing, not asked whatever it holds, until the account exists", async () => {
    const t = setup();
    t.claim(0, entry(USDC, 5_000n));
    t.checks.restart(NODE, 0);
    await t.answer({ entries: [entry(USDC, 5_000n)], hasCode: false, ownerChanged: false, accountMissing: true });
    expect(t.checks.flag(NODE.address)).toBe("account_missing");
    expect(t.checks.covers(NODE.address, USDC, 1n)).toBe(false);
    t.checks.heard(NODE, READ_EVERY_MS);
    await t.answer({ entries: [entry(USDC, 5_000n)], hasCode: false, ownerChanged: false, accountMissing: false });
    expect(t.checks.flag(NODE.address)).toBeNull();
    expect(t.checks.covers(NODE.address, USDC, 1n)).toBe(true);
    expect(t.changes).toEqual([
      [NODE.address.toLowerCase(), "account_missing"],
      [NODE.address.toLowerCase(), null],
    ]);
  });

  it("shows account_owner_changed before account_missing, and account_missing before a mismatch", async () => {
    const t = setup();
    t.claim(0, entry(USDC, 9_000n));
    t.checks.restart(NODE, 0);
    await t.answer({ entries: [entry(USDC, 5_000n)], hasCode: false, ownerChanged: true, accountMissing: true });
    expect(t.checks.flag(NODE.address)).toBe("account_owner_changed");
    t.checks.heard(NODE, READ_EVERY_MS);
    await t.answer({ entries: [entry(USDC, 5_000n)], hasCode: false, ownerChanged: false, accountMissing: true });
    expect(t.checks.flag(NODE.address)).toBe("account_missing");
  });

  it("finds its checks again in its store, as after hibernation", async () => {
    const t = setup();
    t.claim(0, entry(USDC, 5n));
    t.checks.restart(NODE, 0);
    await t.answer([entry(USDC, 1n)]);
    const woken = new InventoryChecks({
      reader: async () => ({ entries: [], hasCode: false }),
      tokens: [USDC],
      sameToken: same,
      claims: () => null,
      store: t.store,
      waitUntil: () => {},
      onFlagChange: () => {},
      onCovered: () => {},
    });
    expect(woken.covers(NODE.address, USDC, 1n)).toBe(true);
    expect(woken.flag(NODE.address)).toBe("inventory_mismatch");
    woken.forget(NODE.address);
    expect(t.store.map.size).toBe(0);
  });
});
