/**
 * The keeper objects' periodic jobs, rows of their schedules (src/objects/schedule.ts; docs/settlement.md, "The
 * keeper's alarm"). A chain's keeper runs one:
 * - `indexer` every second while a transaction is followed.
 * The leader runs the rest, none of which touches a chain:
 * - `prune` of expired Idempotency-Keys every hour;
 * - `expire`: open quotes past their expiry recorded as expired, every 10 s, so D1 is true unread.
 * - `limits`: the limit job (src/keeper/limit-job.ts) every 5 s while limit orders are on.
 * - `retention`: ended quotes past the configuration's `retention` archived to R2 and deleted from D1,
 *   every hour, and every RETENTION_BACKLOG_MS while a run leaves more (docs/operations.md, "Archive").
 * Every job is idempotent: alarms are at-least-once, and a pass repeated changes nothing.
 */
export type ChainKeeperJob = "indexer";
export type LeaderJob = "prune" | "expire" | "limits" | "retention";

export const INDEX_EVERY_MS = 1_000;
export const PRUNE_EVERY_MS = 60 * 60 * 1000;
export const EXPIRE_EVERY_MS = 10_000;
export const RETENTION_EVERY_MS = 60 * 60 * 1000;
/** A run that stopped at its bound goes on this much later, until the backlog is gone. */
export const RETENTION_BACKLOG_MS = 10_000;
/** How often the keeper auctions open limit orders (spec: `LIMIT_POLL_MS`). */
export const LIMIT_POLL_MS = 5_000;
