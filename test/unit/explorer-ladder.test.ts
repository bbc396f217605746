import { describe, expect, it } from "vitest";
import { ladderGeometry, rateOf } from "../../public/js/ladder-chart.js";

const BOX = { width: 120, height: 60, top: 10, right: 10, bottom: 10, left: 10 };

describe("the explorer's live ladder geometry", () => {
  it("reads a rung's rate in whole tokens, whatever the decimals", () => {
    expect(rateOf({ sellAmount: "1580000000", buyAmount: "1000000" }, 6, 6)).toBeCloseTo(1 / 1580, 12);
    expect(rateOf({ sellAmount: "1000000", buyAmount: "1580000000000000000000" }, 6, 18)).toBe(1580);
  });

  it("places rungs by the log of the amount sold, the best rate at the top", () => {
    const g = ladderGeometry(
      [
        { sellAmount: "1000", buyAmount: "1000" },
        { sellAmount: "10000", buyAmount: "9500" },
        { sellAmount: "100000", buyAmount: "90000" },
      ],
      0,
      0,
      BOX,
    );
    expect(g.points).toEqual([
      { x: 10, y: 10 },
      { x: 60, y: 30 },
      { x: 110, y: 50 },
    ]);
    expect(g.path).toBe("M10 10 L60 30 L110 50");
    expect(g.rates).toEqual({ low: 0.9, high: 1 });
  });

  it("draws a flat ladder mid-height, and one rung in the middle", () => {
    const flat = ladderGeometry(
      [
        { sellAmount: "100", buyAmount: "50" },
        { sellAmount: "1000", buyAmount: "500" },
      ],
      0,
      0,
      BOX,
    );
    expect(flat.points.map((p) => p.y)).toEqual([30, 30]);
    expect(ladderGeometry([{ sellAmount: "100", buyAmount: "50" }], 0, 0, BOX).points).toEqual([{ x: 60, y: 30 }]);
  });
});
