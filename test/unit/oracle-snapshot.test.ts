import { describe, expect, it } from "vitest";
import type { PollOutcome, RateSource } from "../../src/oracle/poll";
import { buildSnapshot, storedSnapshot } from "../../src/oracle/snapshot";
import type { Reading } from "../../src/oracle/types";

const NOW = Date.UTC(2025, 10, 21, 12);
const USD_NGN = { base: "USD", quote: "NGN" };

function source(name: string, maxAgeSeconds = 60, pair = USD_NGN): RateSource {
  return {
    name,
    url: `https://example.test/${name}`,
    pair,
    maxAgeMs: maxAgeSeconds * 1000,
    parse: () => ({ ok: false, reason: "unused" }),
  };
}
/** A reading received at `receivedAt` (NOW unless given). */
const read = (name: string, reading: Partial<Reading> & { value: number }, receivedAt = NOW): PollOutcome => ({
  name,
  ok: true,
  reading: { bid: null, ask: null, at: NOW, ...reading },
  receivedAt,
});
const fail = (name: string, reason: string): PollOutcome => ({ name, ok: false, reason });

describe("buildSnapshot", () => {
  it("makes the band of a pair from every usable source and lists each source with its figure's time", () => {
    const sources = [source("book"), source("reference", 172_800), source("p2p")];
    const snapshot = buildSnapshot(
      sources,
      [
        read("book", { bid: 1452, ask: 1456, value: 1454, at: NOW - 4_500 }),
        read("reference", { value: 1447.66, at: NOW - 43_200_000 }),
        // No time of its own: dated by when the relay received it.
        read("p2p", { bid: 1449, ask: 1463, value: 1456, at: null }, NOW - 300),
      ],
      1_000,
      NOW,
    );
    expect(snapshot.bands).toStrictEqual({
      "USD/NGN": { base: "USD", quote: "NGN", mid: 1454, low: 1447.66, high: 1456, sources: 3, at: NOW },
    });
    expect(snapshot.sources).toStrictEqual([
      { name: "book", value: 1454, bid: 1452, ask: 1456, at: NOW - 4_500 },
      { name: "reference", value: 1447.66, bid: null, ask: null, at: NOW - 43_200_000 },
      { name: "p2p", value: 1456, bid: 1449, ask: 1463, at: NOW - 300 },
    ]);
    expect(snapshot.unavailable).toEqual([]);
    expect(snapshot.at).toBe(NOW);
  });

  it("leaves out and lists a failed source, with its reason", () => {
    const snapshot = buildSnapshot(
      [source("a"), source("b")],
      [fail("a", "HTTP 500"), read("b", { value: 1450 })],
      1_000,
      NOW,
    );
    expect(snapshot.unavailable).toEqual(["a"]);
    expect(snapshot.reasons).toStrictEqual({ a: "HTTP 500" });
    expect(snapshot.sources.map((s) => s.name)).toEqual(["b"]);
    expect(snapshot.bands["USD/NGN"]).toMatchObject({ mid: 1450, sources: 1 });
  });

  it("shows a stale source with its age but leaves it out of the band, by each source's own limit", () => {
    const snapshot = buildSnapshot(
      [source("ticker", 60), source("daily", 172_800), source("fresh", 60)],
      [
        read("ticker", { value: 1400, at: NOW - 61_000 }),
        read("daily", { value: 1448, at: NOW - 61_000 }),
        read("fresh", { value: 1452, at: NOW - 60_000 }),
      ],
      1_000,
      NOW,
    );
    expect(snapshot.unavailable).toEqual(["ticker"]);
    expect(snapshot.reasons.ticker).toBe("stale: 61 s old");
    expect(snapshot.sources.find((s) => s.name === "ticker")).toMatchObject({ value: 1400, at: NOW - 61_000 });
    expect(snapshot.bands["USD/NGN"]).toMatchObject({ mid: 1450, low: 1448, high: 1452, sources: 2 });
  });

  it.each([
    ["a zero rate", { value: 0 }],
    ["a negative rate", { value: -1450 }],
    ["a rate that is not a number", { value: Number.NaN }],
    ["a crossed book", { bid: 1460, ask: 1450, value: 1455 }],
    ["an empty bid", { bid: 0, ask: 1450, value: 725 }],
    ["a time far in the future", { value: 1450, at: NOW + 3_600_000 }],
  ])("refuses %s as implausible", (_, reading) => {
    const snapshot = buildSnapshot(
      [source("odd"), source("good")],
      [read("odd", reading), read("good", { value: 1452 })],
      1_000,
      NOW,
    );
    expect(snapshot.unavailable).toEqual(["odd"]);
    expect(snapshot.reasons.odd).toMatch(/^implausible/);
    expect(snapshot.sources.map((s) => s.name)).toEqual(["good"]);
    expect(snapshot.bands["USD/NGN"]).toMatchObject({ mid: 1452, sources: 1 });
  });

  it("lists an outlier as unavailable and keeps it out of the band", () => {
    const names = ["a", "b", "c", "wild"];
    const snapshot = buildSnapshot(
      names.map((n) => source(n)),
      [
        read("a", { value: 1450 }),
        read("b", { value: 1454 }),
        read("c", { value: 1456 }),
        read("wild", { value: 2181 }),
      ],
      1_000,
      NOW,
    );
    expect(snapshot.unavailable).toEqual(["wild"]);
    expect(snapshot.reasons.wild).toMatch(/^outlier: \d+ bps from the median$/);
    expect(snapshot.sources.map((s) => s.name)).toEqual(names);
    expect(snapshot.bands["USD/NGN"]).toMatchObject({ mid: 1454, low: 1450, high: 1456, sources: 3 });
  });

  it("has no band for a pair when no source is usable, and lists them all", () => {
    const snapshot = buildSnapshot(
      [source("a"), source("b")],
      [fail("a", "no answer within 3000 ms"), read("b", { value: 1450, at: NOW - 600_000 })],
      1_000,
      NOW,
    );
    expect(snapshot.bands).toStrictEqual({});
    expect(snapshot.unavailable).toEqual(["a", "b"]);
  });

  it("keeps pairs apart", () => {
    const ghs = { base: "USD", quote: "GHS" };
    const snapshot = buildSnapshot(
      [source("ngn"), source("ghs", 60, ghs)],
      [read("ngn", { value: 1450 }), read("ghs", { value: 11.02 })],
      1_000,
      NOW,
    );
    expect(snapshot.bands["USD/NGN"]).toMatchObject({ base: "USD", quote: "NGN", mid: 1450, sources: 1 });
    expect(snapshot.bands["USD/GHS"]).toMatchObject({ base: "USD", quote: "GHS", mid: 11.02, sources: 1 });
  });

  it("keeps a failing source's last good figure, with its own time, in sources but out of every band", () => {
    const sources = [source("a"), source("b"), source("never")];
    const first = buildSnapshot(
      sources,
      [read("a", { value: 1450, at: NOW - 2_000 }), read("b", { value: 1454 }), fail("never", "HTTP 500")],
      1_000,
      NOW,
    );
    const later = NOW + 30_000;
    const second = buildSnapshot(
      sources,
      [fail("a", "HTTP 503"), read("b", { value: 1456, at: later }), fail("never", "HTTP 500")],
      1_000,
      later,
      first,
    );
    expect(second.unavailable).toEqual(["a", "never"]);
    expect(second.sources).toStrictEqual([
      { name: "a", value: 1450, bid: null, ask: null, at: NOW - 2_000 },
      { name: "b", value: 1456, bid: null, ask: null, at: later },
    ]);
    expect(second.bands["USD/NGN"]).toMatchObject({ mid: 1456, sources: 1 });

    // Still failing a round later: still its figure from before, not an implausible one in between.
    const third = buildSnapshot(
      sources,
      [read("a", { value: -1 }, later + 10_000), read("b", { value: 1456, at: later }), fail("never", "HTTP 500")],
      1_000,
      later + 10_000,
      second,
    );
    expect(third.sources.find((s) => s.name === "a")).toStrictEqual(second.sources[0]);
    expect(third.reasons.a).toMatch(/^implausible/);
  });

  it("holds a source without a time of its own to its age limit from when the relay received it", () => {
    const snapshot = buildSnapshot(
      [source("p2p", 60)],
      [read("p2p", { value: 1450, at: null }, NOW - 61_000)],
      1_000,
      NOW,
    );
    expect(snapshot.unavailable).toEqual(["p2p"]);
    expect(snapshot.reasons.p2p).toBe("stale: 61 s old");
  });
});

describe("storedSnapshot", () => {
  it("takes a round stored with each figure's time, and none stored in the older shape (ages without times)", () => {
    const round = buildSnapshot([source("a")], [read("a", { value: 1450 })], 1_000, NOW);
    expect(storedSnapshot(round)).toBe(round);
    expect(storedSnapshot(undefined)).toBeNull();
    const older = { ...round, sources: [{ name: "a", value: 1450, bid: null, ask: null, ageSeconds: 0 }] };
    expect(storedSnapshot(older as unknown as typeof round)).toBeNull();
  });
});
