import { describe, expect, it } from "vitest";
import { marketOutput } from "../../scripts/lib/limit-demo";

describe("the limit-order demo's market", () => {
  it("converts naira-token units to dollar-token units at the band's mid, rounding down", () => {
    expect(marketOutput(1_580_000_000n, 1580, 6, 6)).toBe(1_000_000n);
    expect(marketOutput(1_580_000_000n, 1500, 6, 6)).toBe(1_053_333n);
    expect(marketOutput(1_580_000_000n, 1454.25, 6, 18)).toBe(1_086_470_689_358_776_001n);
  });
});
