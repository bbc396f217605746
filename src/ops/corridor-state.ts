import type { CorridorState, PauseRecord } from "../schemas/ops";

/** What a corridor object says of itself (`CorridorDO.status`). */
export interface CorridorStatus {
  paused: PauseRecord | null;
  /** Authenticated resolvers with a fresh heartbeat. */
  nodes: number;
  /** Its write-behind queue: D1 writes not copied yet, and when the oldest was queued (unix ms). */
  outbox: { queued: number; oldestAt: number | null };
}

/**
 * A corridor's state (docs/operations.md, "Pausing"): paused by an operator, degraded when no resolver
 * can bid (`no_nodes`) or its object did not answer (`unreachable`, `status` null), else quoting.
 */
export function corridorState(status: CorridorStatus | null): { state: CorridorState; degraded: string | null } {
  if (!status) return { state: "degraded", degraded: "unreachable" };
  if (status.paused) return { state: "paused", degraded: null };
  if (status.nodes === 0) return { state: "degraded", degraded: "no_nodes" };
  return { state: "quoting", degraded: null };
}
