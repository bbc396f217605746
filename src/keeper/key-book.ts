/**
 * The Idempotency-Keys the leader has taken, each with the quote it went with (docs/settlement.md,
 * "Idempotency-Key"). D1 hears of a submission only after its answer, so a key sent at once with another
 * quote would find nothing there: the leader writes the key's quote here, in its own storage, before it
 * hands the submission on, and a crash or a reset after that loses nothing. The key as the taker sent it:
 * two takers may send the same one, so the book names the other quotes it went with and the keeper of the
 * chain, which reads the quote, tells whether one of them is the same taker's.
 */
export interface KeyBook {
  /**
   * Takes `key` for `quoteId` until `until` (epoch ms), unless it already is: the other quotes the key is
   * taken for now, newest first (at most `KEY_QUOTES_READ`), and whether this call took it.
   */
  take(key: string, quoteId: string, now: number, until: number): { others: string[]; added: boolean };
  /** Gives back what `take` added, when the submission recorded nothing. */
  release(key: string, quoteId: string): void;
}

/**
 * The most other quotes one key's read names (newest first): the same key from many takers at once is
 * rare, and the keeper of the chain checks them in one D1 statement, whose parameters are bounded.
 */
export const KEY_QUOTES_READ = 32;

/** Expired keys deleted per `take`, so the table's size follows the keys of the last quote window. */
const PRUNE_PER_TAKE = 16;

/** The key book in the leader's SQLite storage (table `leader_keys`). Synchronous, like the storage. */
export class SqlKeyBook implements KeyBook {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(`
      CREATE TABLE IF NOT EXISTS leader_keys (
        key TEXT NOT NULL,
        quote_id TEXT NOT NULL,
        until INTEGER NOT NULL,
        PRIMARY KEY (key, quote_id)
      );
      CREATE INDEX IF NOT EXISTS leader_keys_until ON leader_keys (until);
    `);
  }

  take(key: string, quoteId: string, now: number, until: number): { others: string[]; added: boolean } {
    this.sql.exec(
      "DELETE FROM leader_keys WHERE rowid IN (SELECT rowid FROM leader_keys WHERE until <= ? LIMIT ?)",
      now,
      PRUNE_PER_TAKE,
    );
    const others = this.sql
      .exec<{ quote_id: string }>(
        "SELECT quote_id FROM leader_keys WHERE key = ? AND quote_id != ? AND until > ? ORDER BY until DESC LIMIT ?",
        key,
        quoteId,
        now,
        KEY_QUOTES_READ,
      )
      .toArray()
      .map((r) => r.quote_id);
    const written = this.sql.exec(
      `INSERT INTO leader_keys (key, quote_id, until) VALUES (?, ?, ?)
       ON CONFLICT (key, quote_id) DO UPDATE SET until = excluded.until WHERE leader_keys.until <= ?`,
      key,
      quoteId,
      until,
      now,
    ).rowsWritten;
    return { others, added: written > 0 };
  }

  release(key: string, quoteId: string): void {
    this.sql.exec("DELETE FROM leader_keys WHERE key = ? AND quote_id = ?", key, quoteId);
  }
}
