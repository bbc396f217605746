import { describe, expect, it } from "vitest";
import { legResolvers } from "../../src/db/settlement-steps";

/** Whose records a fill of several makers counts (docs/legs.md, "Settlement and blame"). */

const A = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const B = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";

describe("legResolvers", () => {
  it("is each leg's resolver once, the quote's among them whatever the case of its address", () => {
    expect(legResolvers(A, [{ resolver: A.toLowerCase() }, { resolver: B }])).toEqual([A.toLowerCase(), B]);
    expect(legResolvers(A, [])).toEqual([A]);
    expect(legResolvers(null, [{ resolver: B }, { resolver: B }])).toEqual([B]);
    expect(legResolvers(null, [])).toEqual([]);
  });

  it("counts a Solana maker's leg for the resolver that signed with its key, not for the key", () => {
    const makerKey = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin";
    expect(legResolvers(A, [{ resolver: makerKey, node: B }])).toEqual([A, B]);
  });
});
