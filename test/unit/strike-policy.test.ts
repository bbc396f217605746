import { describe, expect, it } from "vitest";
import {
  afterCleanFill,
  afterStrike,
  CLEAN_FILLS_TO_CLEAR,
  CLEAN_RECORD,
  DOUBLING_WINDOW_MS,
  FIRST_DEMOTION_MS,
  type StrikeRecord,
  strikeReason,
} from "../../src/resolvers/strike-policy";

const HOUR = 3_600_000;
const MIN = 60_000;

/** Strikes `times` times, `gapMs` apart, from a clean record; the demotion lengths in minutes. */
function lengths(times: number, gapMs: number, from: StrikeRecord = CLEAN_RECORD): number[] {
  let record = from;
  const out: number[] = [];
  for (let i = 0; i < times; i++) {
    const r = afterStrike(record, 1_000_000_000 + i * gapMs);
    record = r.record;
    out.push(r.demotedForMs / MIN);
  }
  return out;
}

describe("strikes", () => {
  it("demote for 15 min, doubling for each further strike within 24 h, capped at 32 h", () => {
    expect(lengths(10, HOUR)).toEqual([15, 30, 60, 120, 240, 480, 960, 1920, 1920, 1920]);
    expect(1920 * MIN).toBe(32 * HOUR);
  });

  it("do not double when the previous strike is 24 h old or more, and time alone heals nothing", () => {
    expect(lengths(3, DOUBLING_WINDOW_MS)).toEqual([15, 15, 15]);
    const twice = afterStrike(afterStrike(CLEAN_RECORD, 0).record, HOUR).record;
    // A week later the next strike is as long as the last one was: not shorter.
    expect(afterStrike(twice, 7 * 24 * HOUR).demotedForMs).toBe(30 * MIN);
    expect(afterStrike(twice, 2 * HOUR).demotedForMs).toBe(60 * MIN);
  });

  it("heal only by settled fills: each halves the next length, 20 in a row clear the record", () => {
    let record = afterStrike(afterStrike(afterStrike(CLEAN_RECORD, 0).record, 1).record, 2).record;
    expect(record).toMatchObject({ level: 2, strikes: 3 });
    // A fourth strike now would demote for 120 min; after one clean fill, for 60.
    expect(afterStrike(record, 3).demotedForMs).toBe(8 * FIRST_DEMOTION_MS);
    record = afterCleanFill(record);
    expect(afterStrike(record, 3).demotedForMs).toBe(4 * FIRST_DEMOTION_MS);
    record = afterCleanFill(record);
    expect(afterStrike(record, 3).demotedForMs).toBe(2 * FIRST_DEMOTION_MS);
    record = afterCleanFill(record);
    expect(afterStrike(record, 3).demotedForMs).toBe(FIRST_DEMOTION_MS);
    // Never below the first length, within 24 h of the last strike or later.
    for (let i = 3; i < CLEAN_FILLS_TO_CLEAR - 1; i++) record = afterCleanFill(record);
    expect(record).toMatchObject({ strikes: 3, cleanFills: CLEAN_FILLS_TO_CLEAR - 1 });
    expect(afterStrike(record, 3).demotedForMs).toBe(FIRST_DEMOTION_MS);
    expect(afterStrike(record, 3 + DOUBLING_WINDOW_MS).demotedForMs).toBe(FIRST_DEMOTION_MS);
    // The 20th clean fill in a row clears the record.
    expect(afterCleanFill(record)).toEqual(CLEAN_RECORD);
  });

  it("restart the clean run at a strike", () => {
    let record = CLEAN_RECORD;
    for (let i = 0; i < 10; i++) record = afterCleanFill(record);
    record = afterStrike(record, 0).record;
    expect(record.cleanFills).toBe(0);
  });

  it("say why and for how long", () => {
    const { record, demotedForMs } = afterStrike(CLEAN_RECORD, 0);
    expect(strikeReason(record, demotedForMs, "requote resolver:insufficient_balance")).toBe(
      "strike 1: requote resolver:insufficient_balance; demoted for 15 min",
    );
    expect(strikeReason(record, 32 * HOUR, "x")).toBe("strike 1: x; demoted for 32 h");
  });
});
