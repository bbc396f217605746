import { describe, expect, it } from "vitest";
import { legsOf, shareOf } from "../../public/js/legs.js";
import { legsOf as recordLegsOf } from "../../src/schemas/quote";

/**
 * The legs a quote's page draws (public/js/legs.js, docs/explorer.md), from records of the relay's shape:
 * the legs the relay derives from the winning offers (src/schemas/quote.ts `legsOf`), and `fills`.
 */

const gamma = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
const delta = "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65";
const beta = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";

const offer = (resolver: string, name: string, outputAmount: string, won: boolean, sellAmount?: string) => ({
  resolver,
  name,
  outputAmount,
  rank: 1,
  status: won ? ("won" as const) : ("lost" as const),
  latencyMs: 20,
  won,
  ...(sellAmount ? { sellAmount } : {}),
});

function record(
  offers: ReturnType<typeof offer>[],
  fills: { resolver: string; orderHash: string; logIndex: number }[] = [],
) {
  const sellAmount = "3160000000";
  return { sellAmount, offers, legs: recordLegsOf({ sellAmount, offers }), fills };
}

describe("a quote's legs", () => {
  it("are each winning part's: resolver, part, output and share, in the record's order", () => {
    const quote = record([
      offer(gamma, "gamma", "1200000", true, "1896000000"),
      offer(delta, "delta", "800000", true, "1264000000"),
      offer(beta, "beta", "1990000", false),
    ]);
    const legs = legsOf(quote);
    expect(legs.map((l) => [l.name, l.resolver, l.sellAmount, l.outputAmount, l.share, l.fill])).toEqual([
      ["gamma", gamma, "1896000000", "1200000", "60 %", null],
      ["delta", delta, "1264000000", "800000", "40 %", null],
    ]);
    expect(legs.map((l) => l.bar)).toEqual([
      { from: 0, width: 6000 },
      { from: 6000, width: 4000 },
    ]);
  });

  it("take each leg's own fill event once the fill landed, whatever the address's case", () => {
    const fills = [
      { resolver: delta.toLowerCase(), orderHash: "0xd1", logIndex: 7, filler: gamma },
      { resolver: gamma, orderHash: "0xa1", logIndex: 4, filler: gamma },
    ];
    const quote = record(
      [offer(gamma, "gamma", "1200000", true, "1896000000"), offer(delta, "delta", "800000", true, "1264000000")],
      fills,
    );
    expect(legsOf(quote).map((l) => l.fill?.logIndex)).toEqual([4, 7]);
  });

  it("are none for a quote of one leg or of no winner, which the page shows as before", () => {
    expect(
      legsOf(record([offer(beta, "beta", "1990000", true), offer(gamma, "gamma", "1200000", false, "1896000000")])),
    ).toEqual([]);
    expect(legsOf(record([offer(beta, "beta", "1990000", false)]))).toEqual([]);
    expect(legsOf({ sellAmount: "1", offers: [] })).toEqual([]);
  });
});

describe("a leg's share", () => {
  it("is written to two decimals at most, rounded down", () => {
    expect(shareOf(6n, 10n)).toBe("60 %");
    expect(shareOf(1n, 3n)).toBe("33.33 %");
    expect(shareOf(1n, 8n)).toBe("12.5 %");
    expect(shareOf(1n, 100_000n)).toBe("0 %");
    expect(shareOf(5n, 0n)).toBe("0 %");
  });
});
