import { describe, expect, it } from "vitest";
import { canMove, ENDING_MOVES, OPEN_STATUSES } from "../../src/states/quote-states";

describe("the moves that end an open quote", () => {
  it("are the cancel and the expiry, each from an open status to one the quote's state machine allows", () => {
    expect(Object.keys(ENDING_MOVES)).toEqual(["cancelled", "expired"]);
    for (const move of Object.values(ENDING_MOVES)) {
      expect(move.from).toEqual(OPEN_STATUSES);
      for (const from of move.from) expect(canMove(from, move.to), `${from} → ${move.to}`).toBe(true);
    }
  });

  it("leave an expired quote one timeline event, and a cancelled one none", () => {
    expect(ENDING_MOVES.expired.events).toEqual(["expired"]);
    expect(ENDING_MOVES.cancelled.events).toEqual([]);
  });
});
