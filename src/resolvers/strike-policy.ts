/**
 * Strikes and demotion (docs/reliability.md, "Strikes and demotion"): pure arithmetic over a resolver's
 * strike record. A strike demotes at once for 15 min, doubled for each further strike within 24 h (cap
 * 32 h). Only settled fills heal: each halves the next length, 20 in a row clear the record. Time alone
 * never shortens a penalty.
 */

export const FIRST_DEMOTION_MS = 15 * 60_000;
/** 15 min × 2^7 = 32 h. */
export const MAX_STRIKE_LEVEL = 7;
export const DOUBLING_WINDOW_MS = 24 * 3_600_000;
export const CLEAN_FILLS_TO_CLEAR = 20;

/** What a strike or an admin did to a resolver: demoted until then, and why (the resolver hears both). */
export interface Demotion {
  demotedUntil: string;
  reason: string;
}

export interface StrikeRecord {
  /**
   * The last demotion lasted FIRST_DEMOTION_MS × 2^level; a strike within 24 h brings level + 1, a later
   * one level (each within 0..MAX_STRIKE_LEVEL). Clean fills lower it, down to -1: a strike within 24 h
   * then brings the first length again.
   */
  level: number;
  /** Strikes since the record was last cleared. */
  strikes: number;
  /** Settled fills in a row since the last strike. */
  cleanFills: number;
  lastStrikeAt: number | null;
}

export const CLEAN_RECORD: StrikeRecord = { level: 0, strikes: 0, cleanFills: 0, lastStrikeAt: null };

/** What a strike earns: the record after it, and how long the resolver is demoted from `now`. */
export function afterStrike(record: StrikeRecord, now: number): { record: StrikeRecord; demotedForMs: number } {
  const doubles = record.lastStrikeAt !== null && now - record.lastStrikeAt < DOUBLING_WINDOW_MS;
  const level = Math.min(Math.max(doubles ? record.level + 1 : record.level, 0), MAX_STRIKE_LEVEL);
  return {
    record: { level, strikes: record.strikes + 1, cleanFills: 0, lastStrikeAt: now },
    demotedForMs: FIRST_DEMOTION_MS * 2 ** level,
  };
}

/** After a settled fill: halves the next demotion (never below the first length); 20 in a row clear the record. */
export function afterCleanFill(record: StrikeRecord): StrikeRecord {
  const cleanFills = record.cleanFills + 1;
  if (cleanFills >= CLEAN_FILLS_TO_CLEAR) return CLEAN_RECORD;
  return { ...record, level: Math.max(-1, record.level - 1), cleanFills };
}

/** The demotion reason shown in the directory and sent to the resolver. */
export function strikeReason(record: StrikeRecord, demotedForMs: number, why: string): string {
  return `strike ${record.strikes}: ${why}; demoted for ${formatDuration(demotedForMs)}`;
}

function formatDuration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `${minutes} min`;
  const hours = minutes / 60;
  return Number.isInteger(hours) ? `${hours} h` : `${hours.toFixed(1)} h`;
}
