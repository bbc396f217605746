import { describe, expect, it } from "vitest";
import { computeBand, median, rejectOutliers } from "../../src/oracle/band";

const USD_NGN = { base: "USD", quote: "NGN" };

describe("median", () => {
  it("takes the middle value of an odd count, whatever the order", () => {
    expect(median([1460, 1450, 1455])).toBe(1455);
    expect(median([3, 1, 2, 5, 4])).toBe(3);
  });

  it("takes the mean of the two middle values of an even count", () => {
    expect(median([1450, 1460])).toBe(1455);
    expect(median([1447.66, 1456, 1454, 1449.31])).toBe(1451.655);
  });

  it("is the value itself for one source", () => {
    expect(median([1451.2])).toBe(1451.2);
  });

  it("refuses no values", () => {
    expect(() => median([])).toThrow(RangeError);
  });

  it("leaves its input unsorted", () => {
    const values = [3, 1, 2];
    median(values);
    expect(values).toEqual([3, 1, 2]);
  });
});

describe("computeBand", () => {
  it("is the median, the extremes and the count, stamped with the time", () => {
    expect(computeBand([1454, 1447.66, 1456, 1449.31, 1454.5], USD_NGN, 1_700_000_000_000)).toStrictEqual({
      base: "USD",
      quote: "NGN",
      mid: 1454,
      low: 1447.66,
      high: 1456,
      sources: 5,
      at: 1_700_000_000_000,
    });
  });

  it("collapses to one value for one source", () => {
    expect(computeBand([1450], USD_NGN, 1)).toMatchObject({ mid: 1450, low: 1450, high: 1450, sources: 1 });
  });

  it("is null without a usable source", () => {
    expect(computeBand([], USD_NGN, 1)).toBeNull();
  });
});

describe("rejectOutliers", () => {
  const named = (values: number[]) => values.map((value, i) => ({ name: `s${i}`, value }));

  it("drops a value further than the limit from the median of all", () => {
    const { kept, outliers } = rejectOutliers(named([1450, 1455, 1460, 2180]), 1_000);
    expect(outliers.map((o) => o.value)).toEqual([2180]);
    expect(kept.map((k) => k.value)).toEqual([1450, 1455, 1460]);
  });

  it("keeps a value just inside the limit and drops one just outside", () => {
    // Median of [1000, 1000, 1100] is 1000: 1100 is exactly 1000 bps away.
    expect(rejectOutliers(named([1000, 1000, 1100]), 1_000).outliers).toEqual([]);
    expect(rejectOutliers(named([1000, 1000, 1101]), 1_000).outliers.map((o) => o.value)).toEqual([1101]);
  });

  it("drops low outliers as well as high ones", () => {
    expect(rejectOutliers(named([1450, 1455, 1460, 14.6]), 1_000).outliers.map((o) => o.value)).toEqual([14.6]);
  });

  it("keeps both of two disagreeing sources, since nothing tells which is wrong", () => {
    const { kept, outliers } = rejectOutliers(named([1000, 2000]), 1_000);
    expect(kept).toHaveLength(2);
    expect(outliers).toEqual([]);
  });
});
