import { describe, expect, it } from "vitest";
import { chooseAsked } from "../../src/auction/asked-nodes";
import { Auction } from "../../src/auction/auction";
import { backoffMs, PROBE_EVERY_MS, REMEMBERED_NODES, ReplyMemory } from "../../src/auction/reply-memory";
import type { NodeSession } from "../../src/nodes/nodes";

describe("ReplyMemory: which nodes answer their rfqs", () => {
  it("waits for a node only once it answered within a window, and not after it missed one", () => {
    const memory = new ReplyMemory();
    memory.asked(["a"], 0);
    expect(memory.awaited("a")).toBe(false);
    memory.answered("a");
    expect(memory.awaited("a")).toBe(true);
    memory.missed("a", 0, 1_500);
    expect(memory.awaited("a")).toBe(false);
  });

  it("counts a silence once however many rfqs it had, and waits for new nodes only while none answers", () => {
    const memory = new ReplyMemory();
    memory.asked(["a", "b", "new"], 0);
    expect(memory.awaitedOf(["a", "b", "new"])).toEqual(new Set(["a", "b", "new"]));
    memory.answered("b");
    expect(memory.awaitedOf(["a", "b", "new"])).toEqual(new Set(["b"]));
    // Forty auctions asked "a" in the same window: one silence, asked again after 1 s.
    for (let i = 0; i < 40; i++) memory.missed("a", i * 10, 1_500 + i * 10);
    expect(memory.askable("a", 2_499)).toBe(false);
    expect(memory.askable("a", 2_500)).toBe(true);
    memory.asked(["a"], 2_500);
    memory.missed("a", 2_500, 4_000);
    expect(memory.askable("a", 5_999)).toBe(false);
    expect(memory.askable("a", 6_500)).toBe(true);
    // Only nodes that missed asked: none is waited for, the window decides.
    expect(memory.awaitedOf(["a"])).toEqual(new Set());
  });

  it("asks a node that misses less and less (1 s, 2 s, 4 s … at most 30 s), and at once again after it answers", () => {
    const memory = new ReplyMemory();
    const gaps: number[] = [];
    let now = 0;
    for (let miss = 1; miss <= 8; miss++) {
      memory.asked(["silent"], now);
      now += 1_500;
      memory.missed("silent", now - 1_500, now);
      const missedAt = now;
      while (!memory.askable("silent", now)) now += 250;
      gaps.push(now - missedAt);
    }
    expect(gaps).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
    expect(backoffMs(1_000)).toBe(PROBE_EVERY_MS);
    memory.asked(["silent"], now);
    memory.answered("silent");
    expect(memory.askable("silent", now)).toBe(true);
    expect(memory.awaited("silent")).toBe(true);
  });

  it("remembers at most REMEMBERED_NODES nodes, forgetting the one asked longest ago", () => {
    const memory = new ReplyMemory();
    memory.asked(["first"], 0);
    memory.missed("first", 0, 1_500);
    memory.asked(["kept"], 1);
    memory.answered("kept");
    memory.asked(
      Array.from({ length: REMEMBERED_NODES - 1 }, (_, i) => `n${i}`),
      2,
    );
    memory.asked(["kept"], 3);
    expect(memory.askedAt("first")).toBe(Number.NEGATIVE_INFINITY);
    expect(memory.askable("first", 2)).toBe(true);
    expect(memory.awaited("kept")).toBe(true);
  });
});

describe("Auction: closing on the awaited nodes", () => {
  it("closes once every awaited node answered, whoever else was asked, and names the silent ones", () => {
    const auction = new Auction(
      "r",
      new Map([
        ["a", 0],
        ["b", 0],
        ["c", 0],
      ]),
      1_500,
      new Set(["a", "b"]),
    );
    auction.claim("a", 10);
    auction.decline();
    expect(auction.isOpen).toBe(true);
    auction.drop("b");
    expect(auction.isOpen).toBe(false);
    expect(auction.unanswered()).toEqual(["c"]);
  });

  it("waits for every asked node when none is awaited", () => {
    const auction = new Auction(
      "r",
      new Map([
        ["a", 0],
        ["b", 0],
      ]),
      1_500,
    );
    auction.claim("a", 10);
    auction.decline();
    expect(auction.isOpen).toBe(true);
    auction.claim("b", 20);
    auction.decline();
    expect(auction.isOpen).toBe(false);
  });
});

/** Nodes named n0, n1 … with addresses 0x…00, 0x…01 …. */
const sessions = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ address: `0x${i.toString(16).padStart(40, "0")}` }) as NodeSession);
const names = (nodes: readonly NodeSession[]) => nodes.map((n) => `n${Number.parseInt(n.address.slice(2), 16)}`);

describe("chooseAsked: the nodes an rfq asks", () => {
  it("asks every eligible node up to the bound", () => {
    expect(names(chooseAsked(sessions(3), { max: 3, standing: null, askedAt: () => 0 }))).toEqual(["n0", "n1", "n2"]);
  });

  it("past it, gives half the places to the most reliable not demoted, the rest in turn, newcomers first", () => {
    const nodes = sessions(10);
    const reliability = new Map(nodes.map((n, i) => [n.address, i / 10]));
    const demoted = new Set([nodes[9]?.address as string]);
    const askedAt = new Map<string, number>();
    const choice = {
      max: 4,
      standing: { reliability, demoted },
      askedAt: (a: string) => askedAt.get(a) ?? Number.NEGATIVE_INFINITY,
    };
    const rounds: string[][] = [];
    for (let round = 0; round < 4; round++) {
      const chosen = chooseAsked(nodes, choice);
      rounds.push(names(chosen));
      for (const n of chosen) askedAt.set(n.address, round);
    }
    // n8 and n7 are the most reliable not demoted (n9 is demoted); the other eight take the two places
    // left in turn, so each is asked within four rfqs.
    expect(rounds).toEqual([
      ["n8", "n7", "n0", "n1"],
      ["n8", "n7", "n2", "n3"],
      ["n8", "n7", "n4", "n5"],
      ["n8", "n7", "n6", "n9"],
    ]);
  });

  it("fills the places the standing leaves with nodes in turn while few have a reliability", () => {
    const nodes = sessions(6);
    const reliability = new Map([[nodes[5]?.address as string, 0.9]]);
    const chosen = chooseAsked(nodes, {
      max: 4,
      standing: { reliability, demoted: new Set() },
      askedAt: () => Number.NEGATIVE_INFINITY,
    });
    expect(names(chosen)).toEqual(["n5", "n0", "n1", "n2"]);
  });
});
