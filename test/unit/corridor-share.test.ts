import { describe, expect, it } from "vitest";
import { overShare } from "../../src/limits/corridor-share";

describe("overShare", () => {
  it("refuses a client at its own limit first", () => {
    expect(overShare(20, 10, 20, 1000)).toBe("client");
    expect(overShare(20, 1000, 20, 1000)).toBe("client");
  });

  it("refuses everyone at the corridor's cap", () => {
    expect(overShare(0, 1000, 20, 1000)).toBe("corridor");
    expect(overShare(5, 1000, 20, 1000)).toBe("corridor");
  });

  it("keeps the last quarter for clients holding none", () => {
    expect(overShare(1, 749, 20, 1000)).toBeNull();
    expect(overShare(1, 750, 20, 1000)).toBe("corridor");
    expect(overShare(0, 750, 20, 1000)).toBeNull();
    expect(overShare(0, 999, 20, 1000)).toBeNull();
  });

  it("50 clients at their own limit of 20 leave a newcomer room under a cap of 1,000", () => {
    let total = 0;
    for (let client = 0; client < 50; client++) {
      for (let held = 0; overShare(held, total, 20, 1000) === null; held++) total++;
    }
    // 38 fill the shared three quarters (750), the other 12 get one each.
    expect(total).toBe(762);
    expect(overShare(0, total, 20, 1000)).toBeNull();
  });
});
