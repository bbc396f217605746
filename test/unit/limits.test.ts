import { describe, expect, it } from "vitest";
import { clientOfAddress, ipv6Prefix64, perPeriod, TokenBuckets } from "../../src/limits";

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

  it("takes a token back when given, never above the burst", () => {
    const buckets = new TokenBuckets();
    const two = { perSecond: 1, burst: 2 };
    buckets.take("a", 0, two);
    buckets.take("a", 0, two);
    buckets.give("a", 0, two);
    expect(buckets.take("a", 0, two).ok).toBe(true);
    expect(buckets.take("a", 0, two).ok).toBe(false);
    buckets.give("a", 0, two);
    buckets.give("a", 0, two);
    buckets.give("a", 0, two);
    expect([1, 2, 3].map(() => buckets.take("a", 0, two).ok)).toEqual([true, true, false]);
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
