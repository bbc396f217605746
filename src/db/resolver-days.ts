import { resolverKey } from "../ids";
/**
 * The reliability counters (migrations/0004_reliability.sql): one row per resolver and UTC day. Each
 * counter's name here and its column there.
 */
export const COUNTER_COLUMNS = {
  asked: "asked",
  answered: "answered",
  won: "won",
  submitted: "submitted",
  settled: "settled",
  // Fills of its wins that failed through its own fault (migrations/0015): the fill rate's misses.
  failed: "failed",
  replies: "replies",
  fastReplies: "fast_replies",
  connectedMs: "connected_ms",
  freshMs: "fresh_ms",
  // Replies by latency (migrations/0013): up to each bound in ms, over the bound before it.
  replies25: "replies_25",
  replies50: "replies_50",
  replies100: "replies_100",
  replies200: "replies_200",
  replies400: "replies_400",
  replies800: "replies_800",
} as const;

export type Counter = keyof typeof COUNTER_COLUMNS;
/** What one write adds to a resolver's day. */
export type DayCounts = Partial<Record<Counter, number>>;
/** A resolver's counters summed over some days. */
export type Totals = Record<Counter, number>;

const COUNTERS = Object.keys(COUNTER_COLUMNS) as Counter[];
/** Counters with nothing counted yet. */
export const NO_TOTALS = Object.fromEntries(COUNTERS.map((c) => [c, 0])) as Totals;
const COLUMNS = COUNTERS.map((c) => COUNTER_COLUMNS[c]);
/** The placeholder a guard's SQL binds its parameter to: after the address, the day and the counts. */
const GUARD_PARAM = `?${COLUMNS.length + 3}`;

/** The UTC day (YYYY-MM-DD) of an ISO 8601 time: the counters a write at that time adds to. */
export const dayOf = (at: string) => at.slice(0, 10);

/**
 * Adds `counts` to the resolver's counters of the day of `at`. `guard` is an SQL condition over
 * constants and the placeholder it is given, bound to `param`: the increment happens only while it
 * holds, so a step written again after a restart counts once.
 */
export function countStatement(
  db: D1Database,
  address: string,
  counts: DayCounts,
  at: string,
  guard: { sql: (placeholder: string) => string; param: string } | null = null,
): D1PreparedStatement {
  const values = COLUMNS.map((_, i) => `?${i + 3}`).join(", ");
  const sums = COLUMNS.map((c) => `${c} = ${c} + excluded.${c}`).join(", ");
  return db
    .prepare(
      `INSERT INTO resolver_days (address, day, ${COLUMNS.join(", ")})
       SELECT ?1, ?2, ${values} WHERE ${guard ? guard.sql(GUARD_PARAM) : "1"}
       ON CONFLICT (address, day) DO UPDATE SET ${sums}`,
    )
    .bind(resolverKey(address), dayOf(at), ...COUNTERS.map((c) => counts[c] ?? 0), ...(guard ? [guard.param] : []));
}

/** Two writes' counts as one. */
export function addDayCounts(a: DayCounts, b: DayCounts): DayCounts {
  const sum: DayCounts = { ...a };
  for (const c of Object.keys(b) as Counter[]) sum[c] = (sum[c] ?? 0) + (b[c] ?? 0);
  return sum;
}

/** Statements adding each resolver's counts of the day of `at`, so a caller can batch them with its own writes. */
export function countAllStatements(
  db: D1Database,
  counts: ReadonlyMap<string, DayCounts>,
  at: string,
): D1PreparedStatement[] {
  return [...counts].map(([address, c]) => countStatement(db, address, c, at));
}

const SUMS = COUNTERS.map((c) => `SUM(${COUNTER_COLUMNS[c]}) AS ${c}`).join(", ");

/**
 * Sums each resolver's days from `sinceDay` on (one row per resolver, for `totalsByAddress`), or only
 * `address`'s.
 */
export function totalsStatement(db: D1Database, sinceDay: string, address: string | null = null): D1PreparedStatement {
  return db
    .prepare(
      `SELECT address, ${SUMS} FROM resolver_days WHERE day >= ?1 AND (?2 IS NULL OR address = ?2) GROUP BY address`,
    )
    .bind(sinceDay, address === null ? null : resolverKey(address));
}

/**
 * `totalsStatement`'s read for the resolvers a query selects: their days from `sinceDay` on summed, one row
 * per resolver; `addressesSql` selects lowercase addresses, and `sinceDay` is the placeholder it is bound to.
 */
export const totalsOfSql = (addressesSql: string, sinceDay: string) =>
  `SELECT address, ${SUMS} FROM resolver_days WHERE day >= ${sinceDay} AND address IN (${addressesSql}) GROUP BY address`;

/** The rows of `totalsStatement`, by lowercase address. */
export function totalsByAddress(rows: readonly (Totals & { address: string })[]): Map<string, Totals> {
  return new Map(rows.map(({ address, ...totals }) => [address, totals]));
}

/** Each resolver's counters summed from `sinceDay` on (or only `address`'s), by lowercase address. */
export async function readTotals(
  db: D1Database,
  sinceDay: string,
  address: string | null = null,
): Promise<Map<string, Totals>> {
  const { results } = await totalsStatement(db, sinceDay, address).all<Totals & { address: string }>();
  return totalsByAddress(results);
}

/** A resolver's counters of one day. */
export type Day = Totals & { day: string };

/** Days' counters summed: the totals over those days. */
export function sumDays(days: readonly Day[]): Totals {
  const totals = { ...NO_TOTALS };
  for (const day of days) for (const c of COUNTERS) totals[c] += day[c];
  return totals;
}

/** The resolver's days from `sinceDay` on, oldest first; a day it was not counted on has no row. */
export async function readDays(db: D1Database, address: string, sinceDay: string): Promise<Day[]> {
  const columns = COUNTERS.map((c) => `${COUNTER_COLUMNS[c]} AS ${c}`).join(", ");
  const { results } = await db
    .prepare(`SELECT day, ${columns} FROM resolver_days WHERE address = ?1 AND day >= ?2 ORDER BY day`)
    .bind(resolverKey(address), sinceDay)
    .all<Day>();
  return results;
}
