import { describe, expect, it } from "vitest";
import { STALE_AFTER_MS } from "../../src/protocol/frame-limits";
import { accrue, startUptime } from "../../src/resolvers/uptime";

const S = 1_000;

describe("accrue", () => {
  it("counts time before the first heartbeat as connected, not fresh", () => {
    expect(accrue(startUptime(0), null, 4 * S)).toEqual({ since: 4 * S, connectedMs: 4 * S, freshMs: 0 });
  });

  it("counts the time between heartbeats 10 s apart as fresh", () => {
    let u = accrue(startUptime(0), null, 1 * S);
    for (const t of [11, 21, 31]) u = accrue(u, (t - 10) * S, t * S);
    expect(u).toEqual({ since: 31 * S, connectedMs: 31 * S, freshMs: 30 * S });
  });

  it("stops counting fresh time 35 s after the last heartbeat", () => {
    const u = accrue({ since: 10 * S, connectedMs: 0, freshMs: 0 }, 10 * S, 100 * S);
    expect(u).toEqual({ since: 100 * S, connectedMs: 90 * S, freshMs: STALE_AFTER_MS });
  });

  it("counts only what comes after `since` when the heartbeat was before it", () => {
    // A write at 20 s started counting afresh; the heartbeat at 10 s keeps it fresh until 45 s.
    const u = accrue(startUptime(20 * S), 10 * S, 60 * S);
    expect(u).toEqual({ since: 60 * S, connectedMs: 40 * S, freshMs: 25 * S });
    expect(accrue(startUptime(50 * S), 10 * S, 60 * S)).toMatchObject({ connectedMs: 10 * S, freshMs: 0 });
  });

  it("adds nothing when no time passed", () => {
    const u = { since: 5 * S, connectedMs: 3, freshMs: 2 };
    expect(accrue(u, 5 * S, 5 * S)).toBe(u);
    expect(accrue(u, 5 * S, 4 * S)).toBe(u);
  });
});
