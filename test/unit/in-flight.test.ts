import { describe, expect, it } from "vitest";
import { InFlightLeases } from "../../src/quotes/in-flight";

describe("a taker's quote requests in flight", () => {
  it("holds up to the limit, and frees a place on release", () => {
    const leases = new InFlightLeases();
    expect(leases.acquire("a", 0, 1_000, 2)).toEqual({ ok: true });
    expect(leases.acquire("b", 0, 1_000, 2)).toEqual({ ok: true });
    expect(leases.acquire("c", 0, 1_000, 2)).toEqual({ ok: false, held: 2 });
    leases.release("a");
    expect(leases.acquire("c", 0, 1_000, 2)).toEqual({ ok: true });
  });

  it("lets a lease that was never released lapse after its time", () => {
    const leases = new InFlightLeases();
    leases.acquire("lost", 0, 1_000, 1);
    expect(leases.acquire("next", 999, 1_000, 1)).toEqual({ ok: false, held: 1 });
    expect(leases.acquire("next", 1_000, 1_000, 1)).toEqual({ ok: true });
  });
});
