import { cleanFill, type StrikeRecord, strike, strikeReason } from "../resolvers/strikes";

/**
 * A resolver's strike record in D1 (migrations/0005_strikes.sql), updated by read, compute
 * (src/resolvers/strikes.ts), and a conditional write that fails if another writer got there first, then
 * tries again. `event` names what is applied (an execution, an rfq): applying it again changes nothing.
 */

interface RecordRow {
  strike_level: number;
  strikes: number;
  clean_fills: number;
  last_strike_at: string | null;
  last_standing_event: string | null;
  demoted_until: string | null;
  updated_at: string;
}

export interface Demotion {
  demotedUntil: string;
  reason: string;
}

const ATTEMPTS = 3;
const key = (address: string) => address.toLowerCase();

const toRecord = (r: RecordRow): StrikeRecord => ({
  level: r.strike_level,
  strikes: r.strikes,
  cleanFills: r.clean_fills,
  lastStrikeAt: r.last_strike_at === null ? null : Date.parse(r.last_strike_at),
});

async function readRecord(db: D1Database, address: string): Promise<RecordRow | null> {
  return db
    .prepare(
      `SELECT strike_level, strikes, clean_fills, last_strike_at, last_standing_event, demoted_until,
              updated_at
       FROM resolvers WHERE address = ?`,
    )
    .bind(key(address))
    .first<RecordRow>();
}

/** Writes `record` if the row is still as read (`updated_at` unchanged); false when it moved meanwhile. */
async function writeRecord(
  db: D1Database,
  address: string,
  read: RecordRow,
  record: StrikeRecord,
  event: string,
  at: string,
  demotion: Demotion | null,
): Promise<boolean> {
  const result = await db
    .prepare(
      `UPDATE resolvers SET strike_level = ?3, strikes = ?4, clean_fills = ?5, last_strike_at = ?6,
         last_standing_event = ?7, updated_at = ?8,
         demoted_until = COALESCE(?9, demoted_until), demotion_reason = COALESCE(?10, demotion_reason),
         demotions = demotions + (?9 IS NOT NULL)
       WHERE address = ?1 AND updated_at = ?2`,
    )
    .bind(
      key(address),
      read.updated_at,
      record.level,
      record.strikes,
      record.cleanFills,
      record.lastStrikeAt === null ? null : new Date(record.lastStrikeAt).toISOString(),
      event,
      at,
      demotion?.demotedUntil ?? null,
      demotion?.reason ?? null,
    )
    .run();
  return result.meta.changes > 0;
}

/**
 * A strike for `address` (a fill that failed for a reason that is not the taker's): demoted from `now` for
 * the length its record earns, never shortening a longer demotion already in force. Null when the resolver
 * is not in the directory or `event` was already applied.
 */
export async function applyStrike(
  db: D1Database,
  address: string,
  event: string,
  why: string,
  now: number,
): Promise<Demotion | null> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const read = await readRecord(db, address);
    if (!read || read.last_standing_event === event) return null;
    const { record, demotedForMs } = strike(toRecord(read), now);
    const until = now + demotedForMs;
    const current = read.demoted_until === null ? 0 : Date.parse(read.demoted_until);
    const demotion = {
      demotedUntil: new Date(Math.max(until, current)).toISOString(),
      reason: strikeReason(record, demotedForMs, why),
    };
    const at = new Date(Math.max(now, Date.parse(read.updated_at) + 1)).toISOString();
    if (await writeRecord(db, address, read, record, event, at, demotion)) return demotion;
  }
  throw new Error(`could not record a strike for ${address}: its record kept changing`);
}

/** A settled fill by `address`: its strike record heals (src/resolvers/strikes.ts `cleanFill`). */
export async function applyCleanFill(db: D1Database, address: string, event: string, now: number): Promise<void> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const read = await readRecord(db, address);
    if (!read || read.last_standing_event === event) return;
    const at = new Date(Math.max(now, Date.parse(read.updated_at) + 1)).toISOString();
    if (await writeRecord(db, address, read, cleanFill(toRecord(read)), event, at, null)) return;
  }
  throw new Error(`could not record a clean fill for ${address}: its record kept changing`);
}
