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
