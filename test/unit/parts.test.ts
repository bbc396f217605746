import { describe, expect, it } from "vitest";
import { type PartRules, partRefusal, partRules } from "../../src/auction/parts";

describe("partRefusal", () => {
  const rules: PartRules = { sellAmount: 1_000n, takesParts: true, minLeg: 100n };

  it("takes a whole bid (no part, or the rfq's own amount) whatever the rfq takes", () => {
    expect(partRefusal(undefined, rules)).toBeNull();
    expect(partRefusal(1_000n, rules)).toBeNull();
    expect(partRefusal(1_000n, { ...rules, takesParts: false })).toBeNull();
  });

  it("takes a part from the least leg up to less than the whole", () => {
    expect(partRefusal(100n, rules)).toBeNull();
    expect(partRefusal(999n, rules)).toBeNull();
  });

  it("refuses a part below the least leg, above the whole, or where the rfq takes none, each with its code", () => {
    expect(partRefusal(99n, rules)).toBe("part_below_minimum");
    expect(partRefusal(1_001n, rules)).toBe("part_too_large");
    expect(partRefusal(500n, { ...rules, takesParts: false })).toBe("part_not_taken");
  });
});

describe("partRules", () => {
  const adapter = (parts: boolean, token: { minimum: string | null; minLegSellAmount: string | null } | null) =>
    ({ parts, token: () => token }) as never;
  const live = (over: { maxLegs?: number; feeSide?: "buy" | "sell"; gasSide?: "buy" | "sell"; limit?: boolean } = {}) =>
    ({
      terms: {
        sellToken: "0xsell",
        sellAmount: 1_000n,
        chain: { maxLegs: over.maxLegs ?? 4 },
        fee: { side: over.feeSide ?? "buy" },
        ...(over.limit ? { limit: {} } : {}),
      },
      gas: { side: over.gasSide ?? "buy" },
    }) as never;
  const token = { minimum: "50", minLegSellAmount: null };

  it("takes parts on a chain of legs, for an RFQ quote whose fees are both taken from the output", () => {
    expect(partRules({ adapter: adapter(true, token) }, live())).toEqual({
      sellAmount: 1_000n,
      takesParts: true,
      minLeg: 50n,
    });
    expect(partRules({ adapter: adapter(true, { ...token, minLegSellAmount: "200" }) }, live()).minLeg).toBe(200n);
    expect(partRules({ adapter: adapter(true, { minimum: null, minLegSellAmount: null }) }, live()).minLeg).toBe(1n);
  });

  it("takes none where the chain, the kind of round, the legs or the fees' side say so", () => {
    const takes = (parts: boolean, l: Parameters<typeof live>[0]) =>
      partRules({ adapter: adapter(parts, token) }, live(l)).takesParts;
    expect(takes(false, {})).toBe(false);
    expect(takes(true, { maxLegs: 1 })).toBe(false);
    expect(takes(true, { limit: true })).toBe(false);
    expect(takes(true, { feeSide: "sell" })).toBe(false);
    expect(takes(true, { gasSide: "sell" })).toBe(false);
  });
});
