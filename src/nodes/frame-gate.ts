import type { LiveAuctions } from "../auction";
import { CLOSE_REASONS, frameSize, MAX_FRAME_BYTES, type NodeFrame, parseNodeFrame } from "../protocol";
import type { FrameLimiter } from "./frame-limiter";

/** What the gate makes of one message: a frame let through, or what becomes of the message instead. */
export type Gated =
  | { frame: NodeFrame }
  /** Closed 1008 with this reason (docs/resolver-protocol.md, "Limits"). */
  | { reject: string; message: string }
  /** Refused without closing, with an `error` frame. */
  | { refuse: { code: string; message: string } }
  /** A malformed reply to a live rfq: the node's reply, rejected; the node stays connected. */
  | { malformed: { rfqId: string; message: string } };

/**
 * A message's size, shape and rate, before any part reads it: `address` is the node's once it has
 * authenticated. A node's first reply to an rfq it was asked is solicited: an auction rate above 50/s must
 * not close its resolvers. Every other frame, duplicate and unknown replies included, counts toward the
 * flood limit.
 */
export function gateFrame(
  message: string | ArrayBuffer,
  address: string | null,
  limiter: FrameLimiter,
  auctions: LiveAuctions,
  now: number,
): Gated {
  if (frameSize(message) > MAX_FRAME_BYTES) {
    return { reject: CLOSE_REASONS.frameTooLarge, message: `frames are limited to ${MAX_FRAME_BYTES} bytes` };
  }
  const parsed = parseNodeFrame(message);
  const solicited =
    parsed.ok &&
    (parsed.frame.type === "bid" || parsed.frame.type === "decline") &&
    address !== null &&
    auctions.awaits(parsed.frame.rfqId, address);
  if (!solicited && !limiter.allow(now))
    return { reject: CLOSE_REASONS.rateLimited, message: "over 50 frames per second" };
  if (parsed.ok) return { frame: parsed.frame };
  if (address && parsed.rfqId && auctions.isLive(parsed.rfqId)) {
    return { malformed: { rfqId: parsed.rfqId, message: parsed.message } };
  }
  // A malformed ladder is refused and stores nothing; the node stays connected.
  if (address && parsed.type === "levels") return { refuse: { code: "bad_levels", message: parsed.message } };
  return { reject: CLOSE_REASONS.badFrame, message: parsed.message };
}
