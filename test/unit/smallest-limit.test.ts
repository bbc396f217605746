import { describe, expect, it } from "vitest";
import { protocolFee } from "../../src/auction/amounts";
import { smallestLimit } from "../../src/limit-orders/terms";

/** `smallestLimit` (docs/limit-orders.md, "Amounts"): the least limit whose `minOut` is at least 1, checked by search. */
describe("smallestLimit", () => {
  const minOut = (limit: bigint, bps: number, gas: bigint) => limit - protocolFee(limit, bps) - gas;

  it("is the least limit that leaves the recipient something, for fees and gas fees of every size", () => {
    for (const bps of [0, 1, 10, 25, 333, 9_999]) {
      for (const gas of [0n, 1n, 7n, 150_000n, 12_345_678n]) {
        const limit = smallestLimit(bps, gas);
        expect(minOut(limit, bps, gas), `bps ${bps}, gas ${gas}`).toBeGreaterThanOrEqual(1n);
        expect(limit === 1n || minOut(limit - 1n, bps, gas) < 1n, `bps ${bps}, gas ${gas}`).toBe(true);
      }
    }
    expect(smallestLimit(10, 150_000n)).toBe(150_151n);
  });
});
