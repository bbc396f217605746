import { describe, expect, it } from "vitest";
import { retentionCutoffs } from "../../src/keeper/retention";

describe("retention cutoffs", () => {
  it("puts each kind's cutoff its configured days before now, to the millisecond", () => {
    const now = Date.parse("2026-03-10T12:00:00.250Z");
    expect(retentionCutoffs({ unfilledDays: 7, filledDays: 400 }, now)).toEqual({
      unsubmitted: "2026-03-03T12:00:00.250Z",
      submitted: "2025-02-03T12:00:00.250Z",
    });
    expect(retentionCutoffs({ unfilledDays: 1, filledDays: 1 }, now)).toEqual({
      unsubmitted: "2026-03-09T12:00:00.250Z",
      submitted: "2026-03-09T12:00:00.250Z",
    });
  });
});
