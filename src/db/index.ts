/**
 * D1 (docs/architecture.md, "Layout"): every statement and read of the store of record, each taking the
 * `D1Database`; grouped below by the table it serves.
 * The folder's face: other folders import only what this file names (docs/architecture.md, "Folders").
 */

export { type ApiKeyRow, apiKeyByHash, insertApiKey, listApiKeys, revokeApiKey } from "./api-keys";
export {
  type ArchiveBatch,
  archiveBatchDone,
  archivedObjectOf,
  listsCompleteFrom,
  listsCompleteFromAll,
  planArchiveBatch,
  plannedArchiveBatches,
  pruneArchivedIds,
} from "./archive-batches";
export { type ArchivedQuote, readBatchRecords } from "./archive-records";
export { moveCounts } from "./count-moves";
export {
  type ExecutionRow,
  readExecutionRecord,
  readUncountedFailures,
  readUncountedFailuresOver,
  type UncountedFailure,
} from "./executions";
export { type Fade, readSignedOffers, type SignedOffer, writeFade } from "./fades";
export { recentGasUsed } from "./fill-costs";
export { type SettledFillBooks, settledFillsSince, settledFillsSinceOver } from "./keeper-books";
export {
  type LevelDayRow,
  levelDaysStatement,
  pruneLevelDays,
  readLevelCounts,
  readSloppyLevels,
} from "./level-days";
export { dueLimitOrders, recordLimitChecks } from "./limit-book";
export {
  cancelLimitOrder,
  expireLimitOrders,
  failLimitFill,
  followLimitFills,
  revokeLimitOrders,
  startLimitFill,
} from "./limit-moves";
export {
  countActiveLimitOrders,
  countOpenLimitOrders,
  insertLimitOrder,
  type LimitOrderProgress,
  limitNonceTaken,
  listLimitOrders,
  readLimitOrder,
  readLimitOrderProgress,
} from "./limit-orders";
export { decodeCursor, decodeKeyCursor, encodeCursor, encodeKeyCursor } from "./page-cursor";
export { listQuotes, listQuotesOver, newestFirst } from "./quote-lists";
export { cancelQuote, expireAllDue, expireIfDue, quoteStatus } from "./quote-status";
export { correctOffersStatements, insertQuoteStatements, updateQuoteRepliesStatement } from "./quote-writes";
export {
  type QuoteProgress,
  type QuoteRow,
  readQuoteClaim,
  readQuoteProgress,
  readQuoteRecord,
  readQuoteRow,
  readSubmission,
} from "./quotes";
export { RecordBatch, RecordBatches } from "./record-batch";
export { type RelayFillsAsk, relayFillsSince, relayFillsSinceOver } from "./relay-fills";
export {
  addDayCounts,
  type Counter,
  countAllStatements,
  countStatement,
  type Day,
  type DayCounts,
  dayOf,
  NO_TOTALS,
  readDays,
  readTotals,
  sumDays,
  type Totals,
} from "./resolver-days";
export { readDirectoryPage } from "./resolver-pages";
export {
  demoteResolver,
  inDirectory,
  isRegistered,
  nodeSeenStatement,
  type ResolverRow,
  readResolver,
  readStandingRows,
  reinstateResolver,
  type SeenNode,
  touchStatement,
  upsertRegistration,
} from "./resolvers";
export type { EndedKind } from "./retention";
export {
  type ExecutionTerms,
  pruneIdempotencyKeys,
  scopedIdempotencyKey,
} from "./settlement";
export {
  type Claim,
  claimOpenQuote,
  finalStatements,
  legResolvers,
  releaseClaim,
  type SettledReceipt,
  settledStatements,
  submittedStatements,
  writeFailed,
  writeReorged,
  writeReplaced,
  writeRequote,
} from "./settlement-steps";
export { isDatabase, withD1Latency } from "./simulated-latency";
export {
  readOrMakeStrikeRow,
  readStrikeHistory,
  readStrikeRow,
  type StrikeEntry,
  type StrikeHistoryRow,
  type StrikeRow,
  writeStrikeRow,
} from "./strikes";
export {
  BATCH_STATEMENTS,
  COALESCE_MS,
  pruneWrittenBehind,
  WriteBehind,
  type WriteStatements,
} from "./write-behind";
