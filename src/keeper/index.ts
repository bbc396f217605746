/**
 * The keeper (docs/settlement.md): `Keeper` and the jobs its object runs, what the Worker and the keeper
 * say to each other over RPC, and the limit-order pass.
 * The folder's face: other folders import only what this file names (docs/architecture.md, "Folders").
 */

export {
  EXPIRE_EVERY_MS,
  INDEX_EVERY_MS,
  type KeeperJob,
  LIMIT_POLL_MS,
  PRUNE_EVERY_MS,
  RETENTION_BACKLOG_MS,
  RETENTION_EVERY_MS,
} from "./jobs";
export { Keeper } from "./keeper";
export { limitPass } from "./limit-job";
export { limitJobPort } from "./limit-port";
export { notLeader } from "./outcomes";
export { SqlTxStore } from "./pending";
export type { FillNotice } from "./port";
export type { KeeperRpc, SubmitOutcome, SubmitRequest } from "./rpc";
export { submissionLogFields } from "./submission-log";
