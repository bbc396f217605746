import { describe, expect, it } from "vitest";
import { dayLabel, dotsOf, latencyTop, linePath, xAt, yAt } from "../../public/js/chart.js";
import { significant } from "../../public/js/format.js";
import { readPages } from "../../public/js/pages.js";
import { quoteHref, resolverHref, routeOf, takerHref } from "../../public/js/routes.js";
import { demotionText, keeperMargins, nativeOf, shortId, swapOf } from "../../public/js/summaries.js";
import { localConfig } from "../../src/config/local";
import { configRecord } from "../../src/config/record";

/**
 * The pure modules behind the explorer's resolver and taker pages, its recent quotes and the keeper's
 * margin (public/js, docs/explorer.md), against the relay's own configuration record.
 */

const record = JSON.parse(JSON.stringify(configRecord(localConfig)));
const evm = record.chains.find((c: { kind: string }) => c.kind === "evm");
const solana = record.chains.find((c: { kind: string }) => c.kind === "solana");
const [cngn, usdc] = evm.tokens.map((t: { address: string }) => t.address) as [string, string];
const alpha = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

describe("routes", () => {
  it("reads each page from the fragment, and its links lead back to it", () => {
    expect(routeOf("")).toEqual({ page: "overview" });
    expect(routeOf("#/")).toEqual({ page: "overview" });
    expect(routeOf("#/quotes/q_abc")).toEqual({ page: "quote", id: "q_abc" });
    expect(routeOf(`#/resolvers/${alpha}`)).toEqual({ page: "resolver", id: alpha });
    expect(routeOf(`#/takers/${alpha}`)).toEqual({ page: "taker", id: alpha });
    for (const [href, page] of [
      [quoteHref("q_1"), "quote"],
      [resolverHref(alpha), "resolver"],
      [takerHref("So11111111111111111111111111111111111111112"), "taker"],
    ] as const) {
      expect(routeOf(href).page).toBe(page);
    }
    expect(routeOf(quoteHref("q a/b"))).toEqual({ page: "quote", id: "q a/b" });
  });

  it("takes what it cannot read for the overview", () => {
    expect(routeOf("#/resolvers/")).toEqual({ page: "overview" });
    expect(routeOf("#/takers/%E0%A4%A")).toEqual({ page: "overview" });
    expect(routeOf("#/nowhere/x")).toEqual({ page: "overview" });
  });
});

describe("the 7-day chart", () => {
  const box = { width: 340, height: 170, top: 10, right: 10, bottom: 20, left: 30 };

  it("spreads the days across the plot and puts 0 at the bottom, the top value at the top", () => {
    expect(xAt(box, 0, 7)).toBe(30);
    expect(xAt(box, 6, 7)).toBe(330);
    expect(xAt(box, 0, 1)).toBe(180);
    expect(yAt(box, 0, 1)).toBe(150);
    expect(yAt(box, 1, 1)).toBe(10);
    expect(yAt(box, 0.5, 1)).toBe(80);
    expect(yAt(box, 2, 1)).toBe(10);
    expect(yAt(box, 5, 0)).toBe(150);
  });

  it("draws a line through the days with a value and breaks it where a day has none", () => {
    expect(linePath([1, 0.5, null, 0, 1, null, null], box, 1)).toBe("M30 10 L80 80 M180 150 L230 10");
    expect(linePath([null, null], box, 1)).toBe("");
    const dots = dotsOf([null, 0.5, null], box, 1);
    expect(dots).toEqual([{ i: 1, x: 180, y: 80, value: 0.5 }]);
  });

  it("tops the latency plot at a round figure over the highest p99", () => {
    const day = (p99Ms: number | null) => ({ replyLatency: p99Ms === null ? null : { p50Ms: 25, p99Ms } });
    expect(latencyTop([day(null), day(null)])).toBe(100);
    expect(latencyTop([day(25), day(50)])).toBe(50);
    expect(latencyTop([day(200), day(null), day(400)])).toBe(500);
    expect(latencyTop([day(800)])).toBe(1000);
    expect(latencyTop([day(1500)])).toBe(2000);
  });

  it("labels a UTC day by its date", () => {
    expect(dayLabel("2026-11-24")).toBe("24 Nov");
    expect(dayLabel("2027-01-01")).toBe("1 Jan");
    expect(dayLabel("soon")).toBe("soon");
  });
});

it("cuts a long figure to its significant digits, never its integer part", () => {
  expect(significant("0.000195208666666666", 4)).toBe("0.0001952");
  expect(significant("-0.000051295521184246", 4)).toBe("-0.00005129");
  expect(significant("1,234,567.891", 4)).toBe("1,234,567");
  expect(significant("12.3456", 4)).toBe("12.34");
  expect(significant("0.10001", 4)).toBe("0.1");
  expect(significant("0", 4)).toBe("0");
  expect(significant("5", 4)).toBe("5");
});

describe("lists", () => {
  it("writes a quote's swap in whole tokens of its chain", () => {
    const quote = {
      chainId: evm.chainId,
      sellToken: cngn,
      buyToken: usdc,
      sellAmount: "1580000000",
      received: "998500",
    };
    expect(swapOf(record, quote)).toBe("1,580 cNGN → 0.9985 USDC");
  });

  it("shortens ids after their prefix", () => {
    expect(shortId(`q_${"0123456789abcdef".repeat(2)}`)).toBe("q_0123…cdef");
    expect(shortId(`lo_${"f".repeat(32)}`)).toBe("lo_ffff…ffff");
    expect(shortId("q_short")).toBe("q_short");
  });

  it("says whether a resolver is demoted, until when and why", () => {
    expect(demotionText({ demoted: false, demotedUntil: null, demotionReason: null })).toBe(
      "Not demoted: its offers can win.",
    );
    expect(
      demotionText({
        demoted: true,
        demotedUntil: "2026-11-24T10:15:00.000Z",
        demotionReason: "strike 1: resolver:insufficient_balance",
      }),
    ).toBe(
      "Demoted until 2026-11-24 10:15:00 UTC: asked, but cannot win. Why: strike 1: resolver:insufficient_balance",
    );
    expect(demotionText({ demoted: true, demotedUntil: null, demotionReason: null })).toBe(
      "Demoted until reinstated: asked, but cannot win.",
    );
  });
});

describe("paged lists", () => {
  /** A list of 5 paged 2 at a time, as the relay pages it, and the cursors it was read with. */
  const pagedFive = () => {
    const asked: (string | null)[] = [];
    const read = async (cursor: string | null) => {
      asked.push(cursor);
      const start = cursor === null ? 0 : Number(cursor);
      const items = [1, 2, 3, 4, 5].slice(start, start + 2);
      return { items, nextCursor: start + 2 < 5 ? String(start + 2) : null, inactive: 7 };
    };
    return { read, asked };
  };

  it("reads as many pages as are open, following each nextCursor, and keeps what the last page says", async () => {
    const one = pagedFive();
    expect(await readPages(one.read, 1)).toEqual({
      items: [1, 2],
      nextCursor: "2",
      last: { items: [1, 2], nextCursor: "2", inactive: 7 },
    });
    expect(one.asked).toEqual([null]);
    const two = pagedFive();
    expect((await readPages(two.read, 2)).items).toEqual([1, 2, 3, 4]);
    expect(two.asked).toEqual([null, "2"]);
  });

  it("stops at the last page, however many are open", async () => {
    const all = pagedFive();
    const read = await readPages(all.read, 10);
    expect(read).toMatchObject({ items: [1, 2, 3, 4, 5], nextCursor: null });
    expect(all.asked).toEqual([null, "2", "4"]);
  });
});

describe("the keeper's margin", () => {
  const books = (over: object) => ({
    fills: 3,
    spent: "300000000000000",
    charged: "452413333333333",
    margin: "152413333333333",
    unpriced: 0,
    capped: false,
    ...over,
  });

  it("writes each chain's books in whole native tokens, a loss as negative", () => {
    const health = {
      chains: [
        { chainId: evm.chainId, name: evm.name, books: books({}) },
        {
          chainId: solana.chainId,
          name: solana.name,
          books: books({ spent: "15000", charged: "5000", margin: "-10000", unpriced: 2, capped: true }),
        },
        { chainId: 999, name: "down", books: null },
      ],
    };
    expect(keeperMargins(record, health)).toEqual([
      {
        chainId: evm.chainId,
        name: evm.name,
        books: {
          fills: 3,
          charged: "0.0004524 ETH",
          spent: "0.0003 ETH",
          margin: "0.0001524 ETH",
          negative: false,
          notes: [],
        },
      },
      {
        chainId: solana.chainId,
        name: solana.name,
        books: {
          fills: 3,
          charged: "0.000005 SOL",
          spent: "0.000015 SOL",
          margin: "-0.00001 SOL",
          negative: true,
          notes: ["2 at the fallback fee, not in charged", "only the newest fills counted"],
        },
      },
      { chainId: 999, name: "down", books: null },
    ]);
    expect(nativeOf(undefined)).toEqual({ symbol: "ETH", decimals: 18 });
  });
});
