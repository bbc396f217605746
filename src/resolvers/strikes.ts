import { readOrMakeStrikeRow, readStrikeRow, type StrikeEntry, type StrikeRow, writeStrikeRow } from "../db";
import { log } from "../log";
import { afterCleanFill, afterStrike, type Demotion, strikeReason } from "./strike-policy";

/**
 * The one way a resolver's standing moves after a failed or a settled win, for the keeper and the
 * corridor alike (docs/reliability.md, "Strikes and demotion"). Each reads the record, computes the next
 * one (src/resolvers/strike-policy.ts) and writes it if nobody wrote in between, else tries again.
 * `event` names what is applied (an execution, an rfq), so applying it twice counts once. Neither ever
 * throws: a failure is logged and never fails the step that caused it.
 */

const ATTEMPTS = 3;

export interface StandingEvent {
  resolver: string;
  /** What is applied: an execution id, an rfq id. */
  event: string;
  /** The quote it was about, for the resolver's history. */
  quoteId?: string | null;
  now: number;
}

/**
 * A strike for a fill that failed for a reason that is the resolver's: demoted from `now` for the length
 * its record earns, never shortening a longer demotion in force. `demoted` hears of the demotion (the
 * resolver's corridor tells it why). A resolver not in the directory yet gets its entry with the strike.
 * Null when the event was already applied, or the write failed.
 */
export async function strike(
  db: D1Database,
  s: StandingEvent & { why: string },
  demoted: (demotion: Demotion) => unknown,
): Promise<Demotion | null> {
  try {
    const read = () => readOrMakeStrikeRow(db, s.resolver, iso(s.now));
    const demotion = await apply(db, s, read, (row) => {
      const { record, demotedForMs } = afterStrike(row, s.now);
      const until = Math.max(s.now + demotedForMs, row.demotedUntil === null ? 0 : Date.parse(row.demotedUntil));
      const entry = { quoteId: s.quoteId ?? null, why: s.why };
      return {
        record,
        demotion: { demotedUntil: iso(until), reason: strikeReason(record, demotedForMs, s.why) },
        entry,
      };
    });
    if (!demotion) return null;
    log.warn("strike", { resolver: s.resolver, event: s.event, ...demotion });
    await demoted(demotion);
    return demotion;
  } catch (e) {
    log.error("strike_failed", { resolver: s.resolver, event: s.event, error: String(e) });
    return null;
  }
}

/** A settled fill: the resolver's record heals (src/resolvers/strike-policy.ts, `afterCleanFill`). */
export async function heal(db: D1Database, s: StandingEvent): Promise<void> {
  try {
    // A resolver without a directory entry has no record to heal.
    const read = () => readStrikeRow(db, s.resolver);
    await apply(db, s, read, (row) => ({ record: afterCleanFill(row), demotion: null }));
  } catch (e) {
    log.error("clean_fill_failed", { resolver: s.resolver, event: s.event, error: String(e) });
  }
}

type Next = { record: Parameters<typeof writeStrikeRow>[3]; demotion: Demotion | null; entry?: StrikeEntry };

/** Reads, computes and writes conditionally; the demotion written, or null when nothing was. */
async function apply(
  db: D1Database,
  s: StandingEvent,
  read: () => Promise<StrikeRow | null>,
  next: (row: StrikeRow) => Next,
): Promise<Demotion | null> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const row = await read();
    if (!row || row.lastEvent === s.event) return null;
    const { record, demotion, entry } = next(row);
    // Strictly after the row's last write, so the conditional write of the next change sees a new value.
    const at = iso(Math.max(s.now, Date.parse(row.updatedAt) + 1));
    if (await writeStrikeRow(db, s.resolver, row, record, s.event, at, demotion, entry ?? null)) return demotion;
  }
  throw new Error(`the standing of ${s.resolver} kept changing`);
}

const iso = (ms: number) => new Date(ms).toISOString();
