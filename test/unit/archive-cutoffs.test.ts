import { describe, expect, it } from "vitest";
import { archiveCutoffs } from "../../src/archive/run";

describe("archive cutoffs", () => {
  it("takes never-submitted quotes after unfilledHours, submitted ones after filledDays, and drops ids after unfilledDays", () => {
    const now = Date.parse("2026-11-22T12:00:00.000Z");
    expect(archiveCutoffs({ unfilledHours: 3, unfilledDays: 7, filledDays: 400 }, now)).toEqual({
      unsubmitted: "2026-11-22T09:00:00.000Z",
      submitted: "2025-10-18T12:00:00.000Z",
      ids: "2026-11-15T12:00:00.000Z",
    });
  });
});
