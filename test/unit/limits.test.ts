import { describe, expect, it } from "vitest";
import {
  BoundedCache,
  clientOfAddress,
  clientOfRequest,
  ipv6Prefix64,
  networkOfAddress,
  perPeriod,
  TokenBuckets,
  WORKERS_ADDRESS,
} from "../../src/limits";

describe("TokenBuckets", () => {
  const rate = { perSecond: 10, burst: 20 };

  it("lets a key spend its burst at once, then one token per 1/rate s, and says when to come back", () => {
    const buckets = new TokenBuckets();
    for (let i = 0; i < 20; i++) expect(buckets.take("a", 1_000, rate)).toEqual({ ok: true });
    expect(buckets.take("a", 1_000, rate)).toEqual({ ok: false, retryAfter: 1 });
    expect(buckets.take("b", 1_000, rate)).toEqual({ ok: true });
    expect(buckets.take("a", 1_100, rate)).toEqual({ ok: true });
    expect(buckets.take("a", 1_100, rate).ok).toBe(false);
  });

  it("never holds more than its burst, however long a key was quiet", () => {
    const buckets = new TokenBuckets();
    buckets.take("a", 0, rate);
    for (let i = 0; i < 20; i++) expect(buckets.take("a", 3_600_000, rate).ok).toBe(true);
    expect(buckets.take("a", 3_600_000, rate).ok).toBe(false);
  });

  it("peeks without spending, and a refused take spends nothing", () => {
    const buckets = new TokenBuckets();
    const two = { perSecond: 1, burst: 2 };
    expect(buckets.peek("a", 0, two)).toEqual({ ok: true });
    buckets.take("a", 0, two);
    buckets.take("a", 0, two);
    expect(buckets.peek("a", 0, two)).toEqual({ ok: false, retryAfter: 1 });
    expect(buckets.take("a", 0, two).ok).toBe(false);
    expect(buckets.take("a", 1_000, two).ok).toBe(true);
  });

  it("charges a key into debt, so a burst let through at once is earned back before it passes again", () => {
    const buckets = new TokenBuckets();
    const two = { perSecond: 1, burst: 2 };
    expect(buckets.full("a", 0, two)).toBe(true);
    for (let i = 0; i < 5; i++) buckets.charge("a", 0, two);
    expect(buckets.full("a", 0, two)).toBe(false);
    expect(buckets.peek("a", 0, two)).toEqual({ ok: false, retryAfter: 4 });
    expect(buckets.take("a", 3_999, two).ok).toBe(false);
    expect(buckets.take("a", 4_000, two).ok).toBe(true);
  });

  it("turns `n per period` into a bucket of n refilled over the period", () => {
    expect(perPeriod(20, 10)).toEqual({ perSecond: 2, burst: 20 });
    const buckets = new TokenBuckets();
    for (let i = 0; i < 10; i++) buckets.take("ip", 0, perPeriod(10, 60));
    expect(buckets.take("ip", 0, perPeriod(10, 60))).toEqual({ ok: false, retryAfter: 6 });
  });
});

describe("clients", () => {
  it.each([
    ["203.0.113.9", "ip:203.0.113.9"],
    ["2001:db8:1:2:3:4:5:6", "ip:2001:0db8:0001:0002::/64"],
    ["2001:DB8:1:2::", "ip:2001:0db8:0001:0002::/64"],
    ["2001:db8::1", "ip:2001:0db8:0000:0000::/64"],
    ["::ffff:192.0.2.1", "ip:192.0.2.1"],
    [undefined, "ip:local"],
    ["", "ip:local"],
  ])("counts %s as %s", (address, client) => {
    expect(clientOfAddress(address)).toBe(client);
  });

  it("keys every address of one /64 alike, and the next /64 apart", () => {
    expect(ipv6Prefix64("2001:db8:1:2::1")).toBe(ipv6Prefix64("2001:db8:1:2:ffff:ffff:ffff:ffff"));
    expect(ipv6Prefix64("2001:db8:1:2::1")).not.toBe(ipv6Prefix64("2001:db8:1:3::1"));
  });

  it("does not read a malformed IPv6 address as a range", () => {
    expect(ipv6Prefix64("2001::db8::1")).toBeNull();
    expect(ipv6Prefix64("1:2:3:4:5:6:7:8:9")).toBeNull();
    expect(ipv6Prefix64("zz::1")).toBeNull();
  });
});

describe("other Workers and networks", () => {
  it("keys another Worker's request by its zone, only from the Workers' address", () => {
    expect(clientOfRequest(WORKERS_ADDRESS, "Wallet.Example")).toBe("zone:wallet.example");
    expect(clientOfRequest(WORKERS_ADDRESS, null)).toBe("ip:2a06:98c0:3600:0000::/64");
    // A client elsewhere that sends the header itself stays its address.
    expect(clientOfRequest("203.0.113.9", "wallet.example")).toBe("ip:203.0.113.9");
  });

  it.each([
    ["2001:db8:1:2::1", "net:2001:0db8:0001::/48"],
    ["2001:db8:1:ffff::1", "net:2001:0db8:0001::/48"],
    ["203.0.113.9", null],
    ["::ffff:192.0.2.1", null],
    [WORKERS_ADDRESS, null],
    [undefined, null],
  ])("puts %s in network %s", (address, network) => {
    expect(networkOfAddress(address)).toBe(network);
  });
});

describe("BoundedCache", () => {
  it("forgets an entry after its TTL, and past its size the one used longest ago, never all at once", () => {
    const cache = new BoundedCache<number>(3, 1_000);
    cache.set("a", 1, 0);
    cache.set("b", 2, 0);
    cache.set("c", 3, 0);
    expect(cache.get("a", 10)).toBe(1);
    cache.set("d", 4, 10);
    expect(cache.size).toBe(3);
    expect(cache.get("b", 10)).toBeUndefined();
    expect(cache.get("a", 10)).toBe(1);
    expect(cache.get("c", 999)).toBe(3);
    expect(cache.get("c", 1_000)).toBeUndefined();
  });
});
