/**
 * The keeper (docs/settlement.md): the leader that decides and routes each submission, the keeper of one
 * chain that checks, signs, broadcasts and follows it, the jobs their objects run, what the Worker, the
 * leader and the chains' keepers say to each other over RPC, and the limit-order pass.
 * The folder's face: other folders import only what this file names (docs/architecture.md, "Folders").
 */

export type { FillNotice } from "./fill-notice";
export {
  type ChainKeeperJob,
  EXPIRE_EVERY_MS,
  INDEX_EVERY_MS,
  type LeaderJob,
  LIMIT_POLL_MS,
  PRUNE_EVERY_MS,
  RETENTION_BACKLOG_MS,
  RETENTION_EVERY_MS,
} from "./jobs";
export { Keeper } from "./keeper";
export { SqlKeyBook } from "./key-book";
export { Leader } from "./leader";
export { limitPass } from "./limit-job";
export { limitJobPort } from "./limit-port";
export { KEEPER_UNREACHABLE, notLeader } from "./outcomes";
export { SqlTxStore } from "./pending";
export type {
  ChainKeeperRpc,
  ChainKeeperStatus,
  KeeperRpc,
  RoutedSubmission,
  SubmitOutcome,
  SubmitRequest,
} from "./rpc";
export { submissionLogFields } from "./submission-log";
export { expireQuotes, moveCountsToDb, pruneKeys, retain } from "./upkeep";
