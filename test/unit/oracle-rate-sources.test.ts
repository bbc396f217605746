import { describe, expect, it } from "vitest";
import { sourceRates } from "../../src/oracle/rate-sources";

const NOW = Date.UTC(2025, 10, 21, 12);

describe("sourceRates", () => {
  it("gives each figure its true age at the time of the answer, never 0 for want of a time", () => {
    const rates = sourceRates(
      [
        // Its own time: 4.5 s before the answer.
        { name: "book", value: 1454, bid: 1452, ask: 1456, at: NOW - 4_500 },
        // No time of its own: received 7.2 s before the answer (a round read back from storage).
        { name: "p2p", value: 1456, bid: 1449, ask: 1463, at: NOW - 7_200 },
        // A daily reference rate, half a day old.
        { name: "reference", value: 1447.66, bid: null, ask: null, at: NOW - 43_200_000 },
      ],
      NOW,
    );
    expect(rates).toStrictEqual([
      { name: "book", value: 1454, bid: 1452, ask: 1456, ageSeconds: 4 },
      { name: "p2p", value: 1456, bid: 1449, ask: 1463, ageSeconds: 7 },
      { name: "reference", value: 1447.66, bid: null, ask: null, ageSeconds: 43_200 },
    ]);
  });

  it("shows a figure dated a little ahead of the relay's clock as 0 s old, not negative", () => {
    expect(sourceRates([{ name: "ahead", value: 1, bid: null, ask: null, at: NOW + 20_000 }], NOW)).toMatchObject([
      { ageSeconds: 0 },
    ]);
  });
});
