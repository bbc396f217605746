/**
 * The archive (docs/operations.md, "Archive"): ended records older than D1 keeps them, in R2, written by
 * the keeper's retention job and read by id.
 * The folder's face: other folders import only what this file names (docs/architecture.md, "Folders").
 */

export { type Archived, archivedExecution, archivedQuote } from "./read";
export {
  ARCHIVE_BATCH,
  ARCHIVE_BATCHES,
  type ArchiveBucket,
  type ArchiveRun,
  archiveBatch,
  archiveCutoffs,
  archivePass,
  archivePassOver,
} from "./run";
