import { describe, expect, it } from "vitest";
import { relayFault } from "../../src/keeper/fill-notice";
import { SPENT_BY_RELAY } from "../../src/keeper/spent-by-relay";

describe("relayFault: which failed fills mark their corridor degraded", () => {
  it("names the relay's own reasons, and neither the taker's, the resolver's nor a balance the relay's fills spent", () => {
    expect(relayFault("relay:simulation_failed:instruction_2")).toEqual({
      fault: "relay:simulation_failed:instruction_2",
    });
    expect(relayFault("resolver:insufficient_balance")).toEqual({});
    expect(relayFault("taker:insufficient_allowance")).toEqual({});
    expect(relayFault(SPENT_BY_RELAY)).toEqual({});
  });
});
