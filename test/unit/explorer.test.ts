import { describe, expect, it } from "vitest";
import { errorOf } from "../../public/js/api.js";
import { bandName, corridorKey, corridorName, corridorsOf, tokenOf } from "../../public/js/corridors.js";
import { ago, clock, elapsed, percent, shortAddress, units } from "../../public/js/format.js";
import {
  mergeTimeline,
  outcomeOf,
  placeEntry,
  quoteIsOver,
  stageOf,
  TERMINAL_EVENTS,
  TIMELINE_EVENTS,
} from "../../public/js/timeline.js";
import { allCorridors } from "../../src/chains/corridor-keys";
import { localConfig } from "../../src/config/local";
import { configRecord } from "../../src/config/record";
import { TimelineEventName } from "../../src/schemas/quote";

/** The explorer's pure modules (public/js, docs/explorer.md), against the relay's own records. */

const record = JSON.parse(JSON.stringify(configRecord(localConfig)));
const evm = record.chains.find((c: { kind: string }) => c.kind === "evm");
const [cngn, usdc] = evm.tokens.map((t: { address: string }) => t.address) as [string, string];

describe("amounts and times", () => {
  it("writes base units as whole tokens, exactly and grouped", () => {
    expect(units("1580000000", 6)).toBe("1,580");
    expect(units("949000", 6)).toBe("0.949");
    expect(units("1", 6)).toBe("0.000001");
    expect(units("0", 6)).toBe("0");
    expect(units("1234567", 0)).toBe("1,234,567");
    expect(units(`${2n ** 256n - 1n}`, 6)).toBe(
      "115,792,089,237,316,195,423,570,985,008,687,907,853,269,984,665,640,564,039,457,584,007,913,129.639935",
    );
  });

  it("shortens addresses, and writes rates, ages and clock times", () => {
    expect(shortAddress("0x70997970C51812dc3A010C7d01b50e0d17dc79C8")).toBe("0x7099…79C8");
    expect(percent(0.9791)).toBe("97.9 %");
    expect(percent(null)).toBe("—");
    const now = Date.parse("2026-11-23T05:00:00Z");
    expect(ago("2026-11-23T04:59:56Z", now)).toBe("4 s ago");
    expect(ago(now - 3 * 3_600_000, now)).toBe("3 h ago");
    expect(clock("2026-11-23T05:05:17.093Z")).toBe("05:05:17.093 UTC");
    expect(elapsed("2026-11-23T05:05:16.988Z", "2026-11-23T05:05:17.093Z")).toBe("+105 ms");
    expect(elapsed("2026-11-23T05:05:16.988Z", "2026-11-23T05:05:19.228Z")).toBe("+2.2 s");
  });
});

describe("corridors", () => {
  it("finds every corridor the relay serves, under the relay's own keys", () => {
    const keys = corridorsOf(record, [], []).map((c) => c.key);
    expect(keys.sort()).toEqual(
      allCorridors(localConfig)
        .map((c) => c.key)
        .sort(),
    );
  });

  it("gives each corridor its band and the nodes that advertised it, in either token order and case", () => {
    const key = corridorKey(evm, cngn, usdc);
    const band = { corridor: key, base: "USD", quote: "NGN", mid: 1580, low: 1575, high: 1590, sources: 3, at: 0 };
    const node = (name: string, baseToken: string, quoteToken: string) => ({
      name,
      corridors: [{ chainId: evm.chainId, baseToken, quoteToken }],
    });
    const nodes = [node("alpha", cngn, usdc), node("beta", usdc.toLowerCase(), cngn), node("solo", "So1", "So2")];
    const corridor = corridorsOf(record, nodes, [band]).find((c) => c.key === key);
    expect(corridor?.band).toBe(band);
    expect(corridor?.nodes.map((n) => n.name)).toEqual(["alpha", "beta"]);
    expect(corridor?.tokens.map((t) => t.symbol)).toEqual(["cNGN", "USDC"]);
    expect(corridorName(record, key)).toBe(`USDC / cNGN on ${evm.name}`);
  });

  it("names a native price's band, which is no corridor's, by its pair, and gives no corridor that band", () => {
    const native = { corridor: null, base: "ETH", quote: "USD", mid: 3000, low: 2990, high: 3010, sources: 3, at: 0 };
    expect(bandName(record, native)).toBe("ETH in USD (native price)");
    const key = corridorKey(evm, cngn, usdc);
    expect(bandName(record, { ...native, corridor: key })).toBe(`USDC / cNGN on ${evm.name}`);
    expect(corridorsOf(record, [], [native]).every((c) => c.band === null)).toBe(true);
  });

  it("names a token the configuration does not list by its address", () => {
    expect(tokenOf(record, evm.chainId, usdc.toLowerCase())).toMatchObject({ symbol: "USDC", decimals: 6 });
    expect(tokenOf(record, evm.chainId, "0xabc")).toEqual({
      symbol: "0xabc",
      address: "0xabc",
      decimals: 0,
      known: false,
    });
  });
});

describe("the timeline", () => {
  const entry = (event: string) => ({ at: "2026-11-23T05:05:17.093Z", event, detail: null });

  it("listens for every event the relay's timeline can name", () => {
    expect(TIMELINE_EVENTS).toEqual(expect.arrayContaining([...TimelineEventName.options]));
    expect([...TERMINAL_EVENTS].every((e) => TIMELINE_EVENTS.includes(e))).toBe(true);
  });

  it("places streamed entries by position and merges the record's without repeats", () => {
    let timeline = mergeTimeline([], [entry("requested"), entry("quoted")]);
    timeline = placeEntry(timeline, 2, entry("quoted"));
    timeline = placeEntry(timeline, 3, entry("signed"));
    timeline = mergeTimeline(timeline, [entry("requested"), entry("quoted"), entry("signed"), entry("submitted")]);
    expect(timeline.map((e) => e.event)).toEqual(["requested", "quoted", "signed", "submitted"]);
    expect(stageOf(timeline, "submitted")).toBe("submitted");
    expect(stageOf(timeline, "cancelled")).toBe("cancelled");
    expect(placeEntry(timeline, Number(""), entry("final"))).toBe(timeline);
  });

  it("tells a quote that can still move from one that cannot", () => {
    expect(quoteIsOver({ final: false, status: "settled" })).toBe(false);
    expect(quoteIsOver({ final: true, status: "settled" })).toBe(true);
    for (const status of ["failed", "cancelled", "expired"]) expect(quoteIsOver({ final: false, status })).toBe(true);
  });

  it("reads an offer's status as won, lost or steered", () => {
    expect(outcomeOf("won")).toEqual({ label: "won", kind: "won" });
    expect(outcomeOf("outside_band")).toEqual({ label: "steered: outside the band", kind: "steered" });
    expect(outcomeOf("demoted")).toEqual({ label: "steered: demoted", kind: "steered" });
  });
});

it("reads the relay's error bodies", () => {
  expect(errorOf({ error: "not_found", message: "No quote has the id." })).toEqual({
    code: "not_found",
    message: "No quote has the id.",
  });
  expect(errorOf("<html>")).toEqual({});
});
