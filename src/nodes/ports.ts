import type { LiveAuctions } from "../auction";
import type { RelayConfig } from "../config";
import type { LevelsFrame } from "../protocol";
import type { Band } from "../schemas";
import type { NodeChecks, SessionsSide } from "./inventory-checks";
import type { NodeSession } from "./nodes";

/** A corridor's nodes' host: the corridor they serve, its limits, and how their claims are checked on chain. */
export interface CorridorNodesHost {
  corridorKey: string;
  requireRegistration: boolean;
  rfqWindowMs: number;
  limits: Pick<RelayConfig["limits"], "socketsPerClient" | "newSocketsPerMinute" | "socketsPerCorridor">;
  db: D1Database;
  band(): Band | null;
  /** The on-chain checks of what the nodes claim, built around the sessions' side (`chainChecks`). */
  checks(sessions: SessionsSide): NodeChecks;
}

/** What a node's frames tell the corridor object, handed in with each message (`receive`). */
export interface CorridorNodeEvents {
  auctions: LiveAuctions;
  /** A node authenticated or heartbeated: the corridor is in use. */
  onActive(now: number): void;
  /** A node heartbeated. */
  onHeartbeat(now: number): void;
  /** A node's price ladder (docs/resolver-protocol.md, "Price ladders"): why it is refused, or null once it stands. */
  onLevels(node: NodeSession, frame: LevelsFrame): { code: string; message: string } | null;
}
