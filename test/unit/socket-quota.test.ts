import { describe, expect, it } from "vitest";
import { resolverClient, SocketQuota } from "../../src/nodes/socket-quota";

const limits = { socketsPerClient: 50, newSocketsPerMinute: 10, socketsPerCorridor: 100 };
const IP = "ip:203.0.113.7";

describe("SocketQuota", () => {
  it("refuses a client at its own limits 429, and everyone at the corridor's cap 503 corridor_busy", () => {
    const quota = new SocketQuota(limits);
    expect(quota.admit(IP, 50, 50, 0)).toMatchObject({ status: 429, code: "rate_limited" });
    expect(quota.admit(IP, 0, 100, 0)).toMatchObject({
      status: 503,
      code: "corridor_busy",
      extras: { retryAfter: 10 },
    });
    // Past three quarters of the cap, a client that holds one already waits; a client that holds none does not.
    expect(quota.admit(IP, 1, 75, 0)).toMatchObject({ status: 503, code: "corridor_busy" });
    expect(quota.admit(IP, 0, 75, 0)).toBeNull();
  });

  it("counts new sockets per opener: the 11th in a minute is refused", () => {
    const quota = new SocketQuota(limits);
    for (let i = 0; i < 10; i++) expect(quota.admit(IP, 0, 0, 0)).toBeNull();
    expect(quota.admit(IP, 0, 0, 0)).toMatchObject({ status: 429, code: "rate_limited" });
  });

  it("a socket that proves a registered resolver counts against the resolver and gives its address the slot back", () => {
    const quota = new SocketQuota(limits);
    for (let n = 0; n < 30; n++) {
      expect(quota.admit(IP, 0, 0, 0)).toBeNull();
      const address = `0x${n.toString(16).padStart(40, "0")}`;
      expect(quota.claim(IP, address, 0)).toBe(resolverClient(address));
    }
    // The same resolver reconnecting is held to its own rate: past it, its socket stays its opener's.
    const one = `0x${"ab".repeat(20)}`;
    for (let i = 0; i < 10; i++) {
      expect(quota.admit(IP, 0, 0, 0)).toBeNull();
      expect(quota.claim(IP, one, 0)).toBe(resolverClient(one));
    }
    expect(quota.admit(IP, 0, 0, 0)).toBeNull();
    expect(quota.claim(IP, one, 0)).toBe(IP);
  });
});
