import type { AuctionReply } from "../auction";
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

/**
 * What a node's frame raises for the corridor object's other parts, which the object routes by `type`
 * to the part that owns it (durable-objects/corridor-parts.ts).
 */
export type NodeEvent =
  /** A node authenticated: the corridor is in use. */
  | { type: "authenticated"; node: NodeSession }
  /** A node heartbeated: the corridor is in use, and its chain state is kept fresh. */
  | { type: "heartbeat"; node: NodeSession }
  /** A node's price ladder (docs/resolver-protocol.md, "Price ladders"). */
  | { type: "levels"; node: NodeSession; frame: LevelsFrame }
  /** A node's reply to an auction. */
  | { type: "reply"; reply: AuctionReply };

/** Each kind of node event, routed to the part that owns it: one line each. */
export type NodeEventRoutes = { [K in NodeEvent["type"]]: (event: Extract<NodeEvent, { type: K }>) => void };

/** Hands `event` to its route. */
export function routeNodeEvent(routes: NodeEventRoutes, event: NodeEvent): void {
  (routes[event.type] as (e: NodeEvent) => void)(event);
}
