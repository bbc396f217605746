import { describe, expect, it } from "vitest";
import { isId, newId } from "../../src/ids";

describe("ids", () => {
  it("makes distinct ids of the right shape", () => {
    const a = newId("q");
    expect(isId("q", a)).toBe(true);
    expect(a).not.toBe(newId("q"));
    expect(isId("x", a)).toBe(false);
  });

  it("refuses malformed ids", () => {
    expect(isId("q", "x")).toBe(false);
    expect(isId("q", `q_${"0".repeat(31)}`)).toBe(false);
    expect(isId("q", `q_${"G".repeat(32)}`)).toBe(false);
  });
});
