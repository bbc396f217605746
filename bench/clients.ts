/**
 * The clients the benchmarks' load comes from (bench/README.md, "How a run measures"). A relay's load in
 * production comes from many clients, and the relay apportions a corridor's auctions among them
 * (docs/security.md, "A silent resolver and a few clients lock every taker out"): one client alone
 * holds at most a share of them. So each concurrent slot of a load loop is a client of its own, an
 * address of the documentation ranges (RFC 5737) sent as `CF-Connecting-IP`, which a local relay takes
 * as sent (docs/security.md, "Clients"). The floor counts no clients; it gets the same header, so that
 * both Workers read alike requests.
 */

const RANGES = ["198.51.100", "203.0.113"];
/** 254 hosts of each /24. */
const HOSTS = 254;

/** How many distinct clients there are; slots beyond it wrap around. */
export const CLIENT_POOL = RANGES.length * HOSTS;

/** The address of concurrent slot `slot` (from 0). */
export function clientAddress(slot: number): string {
  const i = ((slot % CLIENT_POOL) + CLIENT_POOL) % CLIENT_POOL;
  return `${RANGES[Math.floor(i / HOSTS)]}.${(i % HOSTS) + 1}`;
}

/** The headers that make a request slot `slot`'s client's. */
export function clientHeaders(slot: number): Record<string, string> {
  return { "cf-connecting-ip": clientAddress(slot) };
}
