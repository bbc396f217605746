/**
 * The resolver WebSocket protocol (docs/resolver-protocol.md): its frames, limits and codec.
 * The folder's face: other folders import only what this file names (docs/architecture.md, "Folders").
 */

export { acknowledgeClose, close, frameSize, parseNodeFrame, send, sendText } from "./codec";
export { DECLINE_REASONS } from "./decline-reasons";
export { NODE_FRAME_EXAMPLES, RELAY_FRAME_EXAMPLES } from "./frame-examples";
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
  type NodeFrame,
  type NodeState,
  nodeFrame,
  OUTPUT_AMOUNT_SLOT,
  PING_BYTES,
  PONG_BYTES,
  type RelayFrame,
  relayFrame,
  SIGN_TIMEOUT_MS,
  SIGNER_TYPES,
  type SignedFrame,
  STALE_AFTER_MS,
  signerTypeOf,
} from "./frames";
