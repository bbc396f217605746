import { BATCH_STATEMENTS, COALESCE_MS } from "./write-behind";

interface Queued {
  statements: D1PreparedStatement[];
  done(error: unknown): void;
}

/**
 * Records written to D1 together, behind the answers that made them: a record (one or more statements)
 * waits up to `COALESCE_MS`, as a corridor's write-behind copy does, so the records of a burst share D1
 * batches; `flush` writes the waiting ones at once, for a reader that waits on one of them. A batch D1
 * refuses is written again record by record, so a record fails only on its own statements. Records wait
 * in memory only: the keeper's submissions (docs/settlement.md, "The fast path"), whose storage holds
 * what a restart would lose, and a corridor's level samples (docs/reliability.md, "Honest levels").
 */
export class RecordBatch {
  private queued: Queued[] = [];
  private statements = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly db: D1Database,
    private readonly waitMs = COALESCE_MS,
  ) {}

  /** Queues one record's statements (synchronously); settles once D1 has them, or with D1's refusal. */
  write(statements: D1PreparedStatement[]): Promise<void> {
    const written = new Promise<void>((resolve, reject) => {
      this.queued.push({ statements, done: (e) => (e === null ? resolve() : reject(e)) });
    });
    this.statements += statements.length;
    if (this.statements >= BATCH_STATEMENTS) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.waitMs);
    return written;
  }

  /** Writes every queued record now. */
  async flush(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.queued;
    this.queued = [];
    this.statements = 0;
    if (batch.length === 0) return;
    try {
      await this.db.batch(batch.flatMap((q) => q.statements));
      for (const q of batch) q.done(null);
    } catch (e) {
      if (batch.length === 1) return batch[0]?.done(e);
      await Promise.all(
        batch.map((q) =>
          this.db.batch(q.statements).then(
            () => q.done(null),
            (error: unknown) => q.done(error),
          ),
        ),
      );
    }
  }
}

/**
 * Records of several databases (a chain's quotes, each in its corridor's records database, docs/capacity.md
 * "Records by corridor"): a RecordBatch each, flushed together.
 */
export class RecordBatches {
  private readonly batches = new Map<D1Database, RecordBatch>();

  constructor(private readonly waitMs = COALESCE_MS) {}

  /** Queues one record's statements for `db`; settles once `db` has them, or with its refusal. */
  write(db: D1Database, statements: D1PreparedStatement[]): Promise<void> {
    let batch = this.batches.get(db);
    if (!batch) {
      batch = new RecordBatch(db, this.waitMs);
      this.batches.set(db, batch);
    }
    return batch.write(statements);
  }

  /** Writes every queued record of every database now. */
  async flush(): Promise<void> {
    await Promise.all([...this.batches.values()].map((b) => b.flush()));
  }
}
