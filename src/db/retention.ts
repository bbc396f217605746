/**
 * The two kinds of ended quote (docs/operations.md, "Retention"; migrations/0015_retention.sql), each kept
 * whole in D1 for its own time, then archived with every row keyed by it: offers, timeline events,
 * executions (requotes included) and fills (src/db/archive-batches.ts). The reliability counters
 * (`resolver_days`) are per resolver and day and stay; so do strikes, which name their quote but are a
 * resolver's history, and limit orders.
 */
export type EndedKind = "unsubmitted" | "submitted";

/**
 * Which quotes are of each kind: the WHERE of its partial index in migrations/0015, spelled the same, so
 * SQLite walks that index in the order the quotes ended.
 */
export const KIND_SQL: Record<EndedKind, string> = {
  unsubmitted: "claimed_at IS NULL AND status IN ('expired', 'cancelled', 'failed')",
  submitted: "claimed_at IS NOT NULL AND status IN ('settled', 'failed', 'expired')",
};
