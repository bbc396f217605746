/**
 * The protocol's limits (DESIGN §4, docs/resolver-protocol.md, "Limits and closing"), its timings, and the close codes
 * and reasons of a socket that breaks one.
 */
export const MAX_FRAME_BYTES = 64 * 1024;
export const MAX_FRAMES_PER_SECOND = 50;
export const AUTH_TIMEOUT_MS = 5_000;
/** How long an auction's winner has to answer `sign` before the next bid is asked. */
export const SIGN_TIMEOUT_MS = 500;
export const STALE_AFTER_MS = 35_000;
export const HEARTBEAT_EVERY_MS = 10_000;

/** Most rungs a `levels` ladder may hold, and the longest (and default) life of one (DESIGN §11). */
export const MAX_LADDER_RUNGS = 20;
export const MAX_LEVELS_TTL_MS = 10_000;

/** WebSocket close codes and reasons. */
export const CLOSE_POLICY = 1008;
export const CLOSE_REASONS = {
  badSignature: "bad_signature",
  notRegistered: "not_registered",
  timeout: "timeout",
  frameTooLarge: "frame_too_large",
  rateLimited: "rate_limited",
  badFrame: "bad_frame",
} as const;
