/**
 * The resolver WebSocket protocol (docs/resolver-protocol.md): its frames, limits and codec.
 * The folder's face: other folders import only what this file names (docs/architecture.md, "Folders").
 */

export { close, frameSize, parseNodeFrame, send } from "./codec";
export {
  AUTH_TIMEOUT_MS,
  type AuthFrame,
  authMessage,
  type BidCommitment,
  type BidFrame,
  bandFrameBody,
  CLOSE_POLICY,
  CLOSE_REASONS,
  type DeclineFrame,
  type Eip712Commitment,
  type HeartbeatFrame,
  type InventoryEntry,
  type LevelsFrame,
  MAX_FRAME_BYTES,
  MAX_FRAMES_PER_SECOND,
  MAX_LADDER_RUNGS,
  MAX_LEVELS_TTL_MS,
  type NodeState,
  OUTPUT_AMOUNT_SLOT,
  type RelayFrame,
  SIGN_TIMEOUT_MS,
  type SignedFrame,
  STALE_AFTER_MS,
} from "./frames";
