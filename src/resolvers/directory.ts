import { getAddress } from "viem";
import type { ResolverRow } from "../db";
import { NO_TOTALS, type Totals } from "../db";
import { resolverKey } from "../ids";
import { signerTypeOf } from "../protocol";
import type { Node, Resolver } from "../schemas";
import { reliabilityFields } from "./reliability";

/** Offline for longer than this hides a resolver from the directory unless `include=inactive`. */
export const INACTIVE_AFTER_MS = 24 * 60 * 60 * 1000;

const latest = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : a > b ? a : b);

/**
 * The directory: D1's entries brought up to date by the live view. A connected node's heartbeat is
 * newer than what D1 holds (D1 is written at most once a minute per node), so it wins for `lastSeen`,
 * state and corridors. `totals` are each resolver's reliability counters over the window, by lowercase
 * address.
 */
export function buildDirectory(
  rows: readonly ResolverRow[],
  totals: ReadonlyMap<string, Totals>,
  live: readonly Node[],
  now: number,
  includeInactive: boolean,
): { resolvers: Resolver[]; inactive: number } {
  const liveByAddress = new Map(live.map((n) => [resolverKey(n.address), n]));
  const resolvers: Resolver[] = [];
  let inactive = 0;
  for (const row of rows) {
    const node = liveByAddress.get(resolverKey(row.address));
    const online = node?.fresh ?? false;
    const lastSeen = latest(row.lastSeen, node?.lastHeartbeat ?? null);
    const demoted = row.demotedUntil !== null && Date.parse(row.demotedUntil) > now;
    const solana = (row.solanaAddress ?? node?.solanaAddress ?? null) !== null;
    const measured = reliabilityFields(
      totals.get(resolverKey(row.address)) ?? NO_TOTALS,
      { solana, firstSeen: row.firstSeen },
      now,
    );
    const activeSince = lastSeen ?? row.registeredAt;
    const isInactive = !online && (activeSince === null || now - Date.parse(activeSince) > INACTIVE_AFTER_MS);
    if (isInactive && !includeInactive) {
      inactive++;
      continue;
    }
    resolvers.push({
      address: getAddress(row.address),
      name: row.name || node?.name || "",
      region: row.region ?? node?.region ?? null,
      signerType: signerTypeOf(node?.signerType ?? row.signerType),
      version: node?.version ?? row.version,
      registered: row.registered,
      registeredAt: row.registeredAt,
      ...measured,
      demoted,
      demotedUntil: demoted ? row.demotedUntil : null,
      demotionReason: demoted ? row.demotionReason : null,
      online,
      state: node?.state ?? row.state,
      degraded: node ? node.degraded : row.degraded,
      firstSeen: row.firstSeen,
      lastSeen,
      corridors: node?.corridors ?? row.corridors,
    });
  }
  return { resolvers, inactive };
}
