/**
 * An object's writes to D1, made durable in the object's own SQLite storage first and copied to D1 behind
 * (docs/architecture.md, "Write-behind"): `add` is synchronous, so the write is durable before the
 * object's answer leaves (output gating); `drain` copies the queue to D1 in order, in batches, until it is
 * empty, and is retried by the object's alarm until it succeeds.
 *
 * Each entry is written once: its batch also inserts the entry's id into D1 `written_behind`
 * (migrations/0007_write_behind.sql), so a batch that reached D1 but whose entries were not yet removed
 * here (the object was evicted in between) fails on that key when retried; the entries D1 already has
 * are then dropped and the rest written.
 *
 * `db` is the object's records database (docs/capacity.md, "Records by corridor"): a corridor's quotes,
 * and the counters its batches sum, go there; counters in a database other than `DB` reach `DB` by the
 * keeper's job (src/db/count-moves.ts).
 */

import { log } from "../log";

/** Statements per D1 batch: a quote is about five (its offers are one), and its auction's counters one per resolver. */
export const BATCH_STATEMENTS = 200;
/** The object's alarm retries a drain after this, doubling on each failure up to the maximum. */
const RETRY_MS = 1_000;
const RETRY_MAX_MS = 30_000;

/**
 * How entries become D1 statements: each entry's own (`each`), and what a batch of entries writes together
 * (`merged`, e.g. counters summed over the batch, one row each), after them in the same atomic batch.
 */
export interface WriteStatements<Entry> {
  each(db: D1Database, entry: Entry): D1PreparedStatement[];
  merged?(db: D1Database, entries: readonly Entry[]): D1PreparedStatement[];
}

/** How long a queued write waits before its copy starts, so writes queued meanwhile share its batches. */
export const COALESCE_MS = 100;

interface QueuedRow extends Record<string, SqlStorageValue> {
  seq: number;
  id: string;
  body: string;
}

export class WriteBehind<Entry> {
  private draining: Promise<void> | null = null;
  private soon: Promise<void> | null = null;
  private failures = 0;

  /** `label` names the queue in logs. */
  constructor(
    private readonly sql: SqlStorage,
    private readonly db: D1Database,
    private readonly statements: WriteStatements<Entry>,
    private readonly label: string,
  ) {
    sql.exec(
      `CREATE TABLE IF NOT EXISTS write_behind (
         seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL, body TEXT NOT NULL, added_at INTEGER NOT NULL)`,
    );
  }

  /**
   * Queues a write, durable once the object's current event ends. Returns by when the object's alarm
   * should run, to retry in case the drain the caller starts behind its answer does not finish.
   */
  add(entry: Entry, now = Date.now()): number {
    const id = crypto.randomUUID();
    this.sql.exec("INSERT INTO write_behind (id, body, added_at) VALUES (?, ?, ?)", id, JSON.stringify(entry), now);
    return now + RETRY_MS;
  }

  /**
   * Queues a write on a request's path: durable before the answer leaves, copied to D1 behind it
   * (`drainSoon`), and the object's alarm armed (`retryBy`) to copy it should that not finish.
   */
  async queue(
    entry: Entry,
    retryBy: (at: number) => Promise<void>,
    waitUntil: (p: Promise<void>) => void,
  ): Promise<void> {
    const at = this.add(entry);
    waitUntil(this.drainSoon().catch(() => {}));
    await retryBy(at);
  }

  /**
   * The alarm's part: a drain now; when it fails or leaves writes queued, when to try again (1 s doubling
   * to 30 s over consecutive failures), else null.
   */
  async drainOrRetryAt(now = Date.now()): Promise<number | null> {
    try {
      await this.drain();
      this.failures = 0;
    } catch (e) {
      this.failures++;
      log.error("write_behind_failed", { writeBehind: this.label, failed: String(e), failures: this.failures });
    }
    if (this.size() === 0) return null;
    return now + Math.min(RETRY_MAX_MS, RETRY_MS * 2 ** this.failures);
  }

  /** How many writes wait for D1, and when the oldest was queued (unix ms): the health check's outbox. */
  backlog(): { queued: number; oldestAt: number | null } {
    const row = this.sql
      .exec<{ n: number; oldest: number | null }>("SELECT COUNT(*) AS n, MIN(added_at) AS oldest FROM write_behind")
      .one();
    return { queued: row.n, oldestAt: row.oldest };
  }

  /** How many writes wait for D1. */
  size(): number {
    return this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM write_behind").one().n;
  }

  /**
   * Copies every queued write to D1, oldest first; resolves once the queue is empty (writes queued while
   * it runs included). One drain at a time: a second caller waits for the running one. Rejects when D1
   * does, leaving what is not written queued.
   */
  drain(): Promise<void> {
    this.draining ??= this.drainAll().finally(() => {
      this.draining = null;
    });
    return this.draining;
  }

  /**
   * A drain COALESCE_MS from now, unless one is already coming: the writes queued meanwhile are copied in
   * the same batches (fewer D1 calls, and counters summed once per batch). A read that cannot wait calls
   * `drain`.
   */
  drainSoon(): Promise<void> {
    this.soon ??= new Promise((resolve) => setTimeout(resolve, COALESCE_MS)).then(() => {
      this.soon = null;
      return this.drain();
    });
    return this.soon;
  }

  private async drainAll(): Promise<void> {
    for (;;) {
      const batch = this.nextBatch();
      if (batch.rows.length === 0) return;
      const at = new Date().toISOString();
      try {
        await this.db.batch([
          ...batch.rows.flatMap((row, i) => [
            this.db.prepare("INSERT INTO written_behind (id, written_at) VALUES (?, ?)").bind(row.id, at),
            ...(batch.statements[i] ?? []),
          ]),
          ...(this.statements.merged?.(this.db, batch.entries) ?? []),
        ]);
        this.remove(batch.rows.map((r) => r.id));
      } catch (e) {
        const written = await this.alreadyWritten(batch.rows.map((r) => r.id));
        if (written.length === 0) throw e;
        this.remove(written);
      }
    }
  }

  /** The oldest queued writes, up to about BATCH_STATEMENTS statements (at least one write). */
  private nextBatch(): { rows: QueuedRow[]; entries: Entry[]; statements: D1PreparedStatement[][] } {
    const rows: QueuedRow[] = [];
    const entries: Entry[] = [];
    const statements: D1PreparedStatement[][] = [];
    let count = 0;
    for (const row of this.sql.exec<QueuedRow>("SELECT seq, id, body FROM write_behind ORDER BY seq LIMIT 100")) {
      const entry = JSON.parse(row.body) as Entry;
      const list = this.statements.each(this.db, entry);
      if (rows.length > 0 && count + list.length + 1 > BATCH_STATEMENTS) break;
      rows.push(row);
      entries.push(entry);
      statements.push(list);
      count += list.length + 1;
    }
    return { rows, entries, statements };
  }

  private async alreadyWritten(ids: readonly string[]): Promise<string[]> {
    const { results } = await this.db
      .prepare("SELECT id FROM written_behind WHERE id IN (SELECT value FROM json_each(?))")
      .bind(JSON.stringify(ids))
      .all<{ id: string }>();
    return results.map((r) => r.id);
  }

  private remove(ids: readonly string[]): void {
    this.sql.exec("DELETE FROM write_behind WHERE id IN (SELECT value FROM json_each(?))", JSON.stringify(ids));
  }
}

/** How long D1 remembers a write-behind id: longer than any write waits in a queue. */
const WRITTEN_RETENTION_MS = 24 * 3_600_000;

/** Forgets the ids of writes copied more than a day ago (the keeper's hourly prune job). */
export async function pruneWrittenBehind(db: D1Database, now: number): Promise<void> {
  const cutoff = new Date(now - WRITTEN_RETENTION_MS).toISOString();
  await db.prepare("DELETE FROM written_behind WHERE written_at <= ?").bind(cutoff).run();
}
