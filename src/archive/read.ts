import { type ArchivedQuote, archivedObjectOf } from "../db";
import { log } from "../log";
import type { Execution, Quote } from "../schemas";
import type { ArchiveBucket } from "./run";

/**
 * Archived records read by id (docs/api.md, "Archived records"): D1 keeps which batch holds each archived
 * quote and execution; its object is read and the line that holds the id picked. The record reads as it
 * did before it left D1, with `archived: true`. `gate` is called before an object is read, as before an
 * object is asked (docs/security.md, "Reads that reach objects").
 */

/** The line of the archive that holds quote or execution `id`; null when none does. */
async function archivedLine(
  db: D1Database,
  bucket: ArchiveBucket,
  id: string,
  gate: () => Promise<void>,
): Promise<ArchivedQuote | null> {
  const key = await archivedObjectOf(db, id);
  if (key === null) return null;
  await gate();
  const object = await bucket.get(key);
  // Gone from R2 (a lifecycle rule the operator set, docs/deploy.md): the record is no longer there to answer.
  if (object === null) {
    log.warn("archive_object_missing", { key, id });
    return null;
  }
  for (const line of (await object.text()).split("\n")) {
    if (line === "") continue;
    const record = JSON.parse(line) as ArchivedQuote;
    if (record.quote.quoteId === id || record.executions.some((e) => e.executionId === id)) return record;
  }
  return null;
}

export type Archived<T> = T & { archived: true };

/** Archived quote `quoteId`, or null when the archive has no such quote. */
export async function archivedQuote(
  db: D1Database,
  bucket: ArchiveBucket,
  quoteId: string,
  gate: () => Promise<void>,
): Promise<Archived<Quote> | null> {
  const line = await archivedLine(db, bucket, quoteId, gate);
  return line && { ...line.quote, archived: true };
}

/** Archived execution `executionId` with its quote's lifecycle, or null when the archive has no such execution. */
export async function archivedExecution(
  db: D1Database,
  bucket: ArchiveBucket,
  executionId: string,
  gate: () => Promise<void>,
): Promise<Archived<Execution> | null> {
  const line = await archivedLine(db, bucket, executionId, gate);
  const execution = line?.executions.find((e) => e.executionId === executionId);
  return line && execution ? { ...execution, lifecycle: { ...line.quote, archived: true }, archived: true } : null;
}
