/**
 * Who a request counts against (docs/security.md, "Clients"): an integrator's API key when it sent one,
 * else its address as Cloudflare gives it in `CF-Connecting-IP`, an IPv6 address by its /64 (one
 * subscriber's whole range). Without the header (a local relay) every request is one client, `local`.
 */
export type ClientId = string;

export const LOCAL_CLIENT: ClientId = "ip:local";

export function clientOfAddress(ip: string | undefined | null): ClientId {
  if (!ip) return LOCAL_CLIENT;
  // An IPv4 address written as IPv6 (::ffff:a.b.c.d) is that IPv4 address.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip.trim());
  if (mapped) return `ip:${mapped[1]}`;
  const v6 = ip.includes(":") ? ipv6Prefix64(ip) : null;
  return v6 ? `ip:${v6}::/64` : `ip:${ip.trim()}`;
}

export const clientOfKey = (keyId: string): ClientId => `key:${keyId}`;

/**
 * Where another Worker's requests come from: Cloudflare gives a cross-zone subrequest this address in
 * `CF-Connecting-IP` and the calling zone in `CF-Worker`, so every Worker shares it (Cloudflare's Workers
 * docs, "Headers").
 */
export const WORKERS_ADDRESS = "2a06:98c0:3600::103";
const WORKERS_CLIENT = clientOfAddress(WORKERS_ADDRESS);

/**
 * Who a request without an API key counts against: its address, or, for another Worker's request, the
 * zone that sent it. `CF-Worker` is believed only from the Workers' address, so a client elsewhere cannot
 * name a new zone for each request to escape its address's counts.
 */
export function clientOfRequest(ip: string | undefined | null, worker: string | undefined | null): ClientId {
  const byAddress = clientOfAddress(ip);
  const zone = worker?.trim().toLowerCase();
  return zone && byAddress === WORKERS_CLIENT ? `zone:${zone}` : byAddress;
}

/**
 * The IPv6 /48 an address is in (a site's whole allocation: 65,536 /64s), counted behind its /64 where a
 * limit must hold against a client that moves from /64 to /64; null for IPv4 and for the Workers' address.
 */
export function networkOfAddress(ip: string | undefined | null): ClientId | null {
  if (!ip || clientOfAddress(ip) === WORKERS_CLIENT || !clientOfAddress(ip).endsWith("::/64")) return null;
  const groups = ipv6Prefix64(ip)?.split(":");
  return groups ? `net:${groups.slice(0, 3).join(":")}::/48` : null;
}

/** The first four groups of an IPv6 address, in full lowercase hex; null when it is not one. */
export function ipv6Prefix64(ip: string): string | null {
  const address =
    ip
      .trim()
      .toLowerCase()
      .replace(/^\[|\]$/g, "")
      .split("%")[0] ?? "";
  const halves = address.split("::");
  if (halves.length > 2) return null;
  const groups = (part: string | undefined) => (part ? part.split(":") : []);
  const head = groups(halves[0]);
  const tail = groups(halves[1]);
  // An embedded IPv4 tail (::ffff:1.2.3.4) is two groups; only the first four groups matter here.
  const width = (gs: string[]) => gs.reduce((n, g) => n + (g.includes(".") ? 2 : 1), 0);
  const missing = 8 - width(head) - width(tail);
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const full = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  const first = full.slice(0, 4);
  if (first.length < 4 || !first.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  return first.map((g) => g.padStart(4, "0")).join(":");
}
