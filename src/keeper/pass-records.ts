import { RecordBatches } from "../db";
import type { PendingTx } from "./pending";

/**
 * The D1 records of one indexer pass over a chain (its settlements and finals, docs/settlement.md "The
 * indexer and finality"): queued as the pass finds them and written in one batch when it has followed
 * every transaction (a batch D1 refuses is written again record by record). What each record then
 * changes in the keeper's storage runs only once that record is written, in the order they were queued.
 */
export class PassRecords {
  private readonly batch = new RecordBatches();
  private queued: { tx: PendingTx; record: Promise<void>; then: () => Promise<void> | void }[] = [];

  constructor(
    /** The database of a transaction's quote's records (docs/capacity.md, "Records by corridor"). */
    private readonly dbOf: (tx: PendingTx) => D1Database,
    /** A record, or what follows it, failed: that transaction is read again at the next pass. */
    private readonly failed: (tx: PendingTx, e: unknown) => void,
  ) {}

  /** Queues `tx`'s record, statements prepared on `dbOf(tx)`; `then` runs once it is written (`write`). */
  add(tx: PendingTx, statements: D1PreparedStatement[], then: () => Promise<void> | void): void {
    const record = this.batch.write(this.dbOf(tx), statements);
    record.catch(() => {});
    this.queued.push({ tx, record, then });
  }

  /** Writes every queued record, then runs what each changes, in order. */
  async write(): Promise<void> {
    await this.batch.flush();
    for (const { tx, record, then } of this.queued.splice(0)) {
      try {
        await record;
        await then();
      } catch (e) {
        this.failed(tx, e);
      }
    }
  }
}
