import type { CorridorState, Pause } from "../schemas";
import type { RelayFault } from "./relay-fault";

/** What a corridor object says of itself (`CorridorDO.status`). */
export interface CorridorStatus {
  paused: Pause | null;
  /** Authenticated resolvers with a fresh heartbeat. */
  nodes: number;
  /** Its write-behind queue: D1 writes not copied yet, and when the oldest was queued (unix ms). */
  outbox: { queued: number; oldestAt: number | null };
  /** Its last fill that failed for the relay's own reason, until a fill settles again; null when none. */
  fault: RelayFault | null;
}

/**
 * A corridor's state (docs/operations.md, "Pausing"): paused by an operator, degraded when its fills fail
 * for the relay's own reason (that reason, `relay:…`), when no resolver can bid (`no_nodes`) or its
 * object did not answer (`unreachable`, `status` null), else quoting.
 */
export function corridorState(status: CorridorStatus | null): { state: CorridorState; degraded: string | null } {
  if (!status) return { state: "degraded", degraded: "unreachable" };
  if (status.paused) return { state: "paused", degraded: null };
  if (status.fault) return { state: "degraded", degraded: status.fault.reason };
  if (status.nodes === 0) return { state: "degraded", degraded: "no_nodes" };
  return { state: "quoting", degraded: null };
}
