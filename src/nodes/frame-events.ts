import type { LiveAuctions } from "../auction";
import type { LevelsFrame } from "../protocol";
import type { NodeSession } from "./nodes";

/** What a node's frames tell the caller of `NodeSessions.receive`, which hands them in with each message. */
export interface NodeFrameEvents {
  auctions: LiveAuctions;
  /** A node authenticated or heartbeated: the corridor is in use. */
  onActive(now: number): void;
  /** A node authenticated: a new session, whose holdings are yet to be checked. */
  onAuthenticated(node: NodeSession, now: number): void;
  /** A node heartbeated: what it claims may have changed. */
  onHeartbeat(node: NodeSession, now: number): void;
  /** A node's price ladder (docs/resolver-protocol.md, "Price ladders"): why it is refused, or null. */
  onLevels(node: NodeSession, frame: LevelsFrame): { code: string; message: string } | null;
}
