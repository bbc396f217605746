import { resolverKey } from "../ids";
import { namelessEntryStatement } from "./resolvers";

/**
 * A resolver's strike record in D1 (migrations/0005_strikes.sql): read, and written back only if no
 * other writer moved it meanwhile (`updated_at` unchanged). The arithmetic is src/resolvers/strike-policy.ts;
 * the read-compute-write loop src/resolvers/strikes.ts.
 */

/** The strike columns of a resolver's row. */
export interface StrikeRow {
  level: number;
  strikes: number;
  cleanFills: number;
  lastStrikeAt: number | null;
  /** The last strike or clean fill applied (an execution, an rfq): applying it again changes nothing. */
  lastEvent: string | null;
  demotedUntil: string | null;
  updatedAt: string;
}

interface RecordRow {
  strike_level: number;
  strikes: number;
  clean_fills: number;
  last_strike_at: string | null;
  last_standing_event: string | null;
  demoted_until: string | null;
  updated_at: string;
}

const READ_RECORD = `SELECT strike_level, strikes, clean_fills, last_strike_at, last_standing_event, demoted_until,
         updated_at
       FROM resolvers WHERE address = ?`;

/** The resolver's strike record, or null when it is not in the directory. */
export async function readStrikeRow(db: D1Database, address: string): Promise<StrikeRow | null> {
  const r = await db.prepare(READ_RECORD).bind(resolverKey(address)).first<RecordRow>();
  return r ? strikeRow(r) : null;
}

/**
 * The resolver's strike record, its directory entry made first (nameless, at `at`) when it has none: a node
 * is in the directory only once registered or covered by the chain (docs/reliability.md, "The
 * directory"), and a strike must be kept whatever. One round trip.
 */
export async function readOrMakeStrikeRow(db: D1Database, address: string, at: string): Promise<StrikeRow> {
  const [, read] = await db.batch<RecordRow>([
    namelessEntryStatement(db, address, at),
    db.prepare(READ_RECORD).bind(resolverKey(address)),
  ]);
  const r = read?.results[0];
  if (!r) throw new Error(`the directory entry of ${address} could not be made`);
  return strikeRow(r);
}

function strikeRow(r: RecordRow): StrikeRow {
  return {
    level: r.strike_level,
    strikes: r.strikes,
    cleanFills: r.clean_fills,
    lastStrikeAt: r.last_strike_at === null ? null : Date.parse(r.last_strike_at),
    lastEvent: r.last_standing_event,
    demotedUntil: r.demoted_until,
    updatedAt: r.updated_at,
  };
}

/**
 * Writes the record's new values, `event` and `at` (and the demotion, if any) if the row is still as
 * `read` left it; false when it moved meanwhile.
 */
export async function writeStrikeRow(
  db: D1Database,
  address: string,
  read: Pick<StrikeRow, "updatedAt">,
  next: Pick<StrikeRow, "level" | "strikes" | "cleanFills" | "lastStrikeAt">,
  event: string,
  at: string,
  demotion: { demotedUntil: string; reason: string } | null,
  strike: StrikeEntry | null = null,
): Promise<boolean> {
  const update = db
    .prepare(
      `UPDATE resolvers SET strike_level = ?3, strikes = ?4, clean_fills = ?5, last_strike_at = ?6,
         last_standing_event = ?7, updated_at = ?8,
         demoted_until = COALESCE(?9, demoted_until), demotion_reason = COALESCE(?10, demotion_reason),
         demotions = demotions + (?9 IS NOT NULL)
       WHERE address = ?1 AND updated_at = ?2`,
    )
    .bind(
      resolverKey(address),
      read.updatedAt,
      next.level,
      next.strikes,
      next.cleanFills,
      next.lastStrikeAt === null ? null : new Date(next.lastStrikeAt).toISOString(),
      event,
      at,
      demotion?.demotedUntil ?? null,
      demotion?.reason ?? null,
    );
  if (!strike || !demotion) return (await update.run()).meta.changes > 0;
  // The strike's entry in the history, written with the record it moved, and only if that write landed.
  const entry = db
    .prepare(
      `INSERT OR IGNORE INTO resolver_strikes (address, event, quote_id, reason, demoted_until, at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6
       WHERE EXISTS (SELECT 1 FROM resolvers WHERE address = ?1 AND last_standing_event = ?2 AND updated_at = ?6)`,
    )
    .bind(resolverKey(address), event, strike.quoteId, strike.why, demotion.demotedUntil, at);
  const [updated] = await db.batch([update, entry]);
  return (updated?.meta.changes ?? 0) > 0;
}

/** What a strike's entry in a resolver's history says beside its event: the quote, and why. */
export interface StrikeEntry {
  quoteId: string | null;
  why: string;
}

/** A strike as a resolver's record lists it (docs/reliability.md, "A resolver's record"). */
export interface StrikeHistoryRow extends StrikeEntry {
  event: string;
  demotedUntil: string;
  at: string;
}

/** The resolver's last `limit` strikes, newest first. */
export async function readStrikeHistory(db: D1Database, address: string, limit: number): Promise<StrikeHistoryRow[]> {
  const { results } = await db
    .prepare(
      `SELECT event, quote_id, reason, demoted_until, at FROM resolver_strikes
       WHERE address = ?1 ORDER BY at DESC, event DESC LIMIT ?2`,
    )
    .bind(resolverKey(address), limit)
    .all<{ event: string; quote_id: string | null; reason: string; demoted_until: string; at: string }>();
  return results.map((r) => ({
    event: r.event,
    quoteId: r.quote_id,
    why: r.reason,
    demotedUntil: r.demoted_until,
    at: r.at,
  }));
}
