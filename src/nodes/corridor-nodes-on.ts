import type { LiveAuctions } from "../auction";
import type { Corridor } from "../chains";
import type { RelayConfig } from "../config";
import type { Band } from "../schemas";
import { CorridorNodes } from "./corridor-nodes";
import { chainChecks } from "./inventory-checks";
import type { SocketState } from "./node-sockets";

/**
 * A corridor object's node sessions, wired to its settings, D1, the band it holds, on-chain checks kept in
 * its storage, and the live auctions its nodes' replies may belong to.
 */
export function corridorNodesOn(
  state: SocketState & Parameters<typeof chainChecks>[0],
  parts: {
    config: RelayConfig;
    corridor: Corridor;
    db: D1Database;
    band: { current(): Band | null };
    live: LiveAuctions;
  },
): CorridorNodes {
  const { config, corridor, band } = parts;
  const host = {
    corridorKey: corridor.key,
    requireRegistration: config.requireRegistration,
    rfqWindowMs: config.rfqWindowMs,
    limits: config.limits,
    db: parts.db,
    band: () => band.current(),
    checks: chainChecks(state, corridor),
  };
  return new CorridorNodes(state, host, parts.live);
}
