/**
 * The resolver WebSocket protocol (docs/resolver-protocol.md): the frames a node sends, the frames the relay
 * sends, the protocol's limits, the codec and examples.
 * The folder's face: other folders import only what this file names (docs/architecture.md, "Folders").
 */

export { acknowledgeClose, close, frameSize, parseNodeFrame, send, sendText } from "./codec";
export { DECLINE_REASONS } from "./decline-reasons";
export { NODE_FRAME_EXAMPLES, RELAY_FRAME_EXAMPLES } from "./frame-examples";
export {
  AUTH_TIMEOUT_MS,
  CLOSE_POLICY,
  CLOSE_REASONS,
  MAX_FRAME_BYTES,
  MAX_FRAMES_PER_SECOND,
  MAX_LADDER_RUNGS,
  MAX_LEVELS_TTL_MS,
  SIGN_TIMEOUT_MS,
  STALE_AFTER_MS,
} from "./frame-limits";
export {
  type AuthFrame,
  authMessage,
  type BidFrame,
  type DeclineFrame,
  type HeartbeatFrame,
  type InventoryEntry,
  type LevelsFrame,
  type NodeFrame,
  type NodeState,
  nodeFrame,
  PING_BYTES,
  SIGNER_TYPES,
  type SignedFrame,
  signerTypeOf,
} from "./node-frames";
export {
  type BidCommitment,
  bandFrameBody,
  type Eip712Commitment,
  OUTPUT_AMOUNT_SLOT,
  PONG_BYTES,
  type RelayFrame,
  relayFrame,
} from "./relay-frames";
