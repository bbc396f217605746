import { MAX_FRAME_BYTES, type NodeFrame, nodeFrame, type RelayFrame } from "./frames";

/** A node frame as it arrived: parsed, or why not (with the rfq it answers, when it names one). */
export type Decoded =
  | { ok: true; frame: NodeFrame }
  | { ok: false; reason: "frame_too_large" | "bad_frame"; message: string; rfqId: string | null };

const encoder = new TextEncoder();

/** The size of a text frame in bytes (UTF-8), counted only when its length leaves any doubt. */
function byteLength(text: string): number {
  return text.length * 3 <= MAX_FRAME_BYTES ? text.length : encoder.encode(text).byteLength;
}

/**
 * Decodes a node's frame (docs/resolver-protocol.md): JSON text of at most 64 KiB (bytes, not
 * characters), one of the node frame types. A malformed reply names its rfq, so it can count as that
 * rfq's rejected bid rather than close the socket.
 */
export function decodeNodeFrame(message: string | ArrayBuffer): Decoded {
  const size = typeof message === "string" ? byteLength(message) : message.byteLength;
  if (size > MAX_FRAME_BYTES) {
    return {
      ok: false,
      reason: "frame_too_large",
      message: `frames are limited to ${MAX_FRAME_BYTES} bytes`,
      rfqId: null,
    };
  }
  if (typeof message !== "string")
    return { ok: false, reason: "bad_frame", message: "frames are JSON text", rfqId: null };
  let json: unknown;
  try {
    json = JSON.parse(message);
  } catch {
    return { ok: false, reason: "bad_frame", message: "frames are JSON text", rfqId: null };
  }
  const result = nodeFrame.safeParse(json);
  if (result.success) return { ok: true, frame: result.data };
  const issue = result.error.issues[0];
  const { type, rfqId } = (typeof json === "object" && json !== null ? json : {}) as Record<string, unknown>;
  return {
    ok: false,
    reason: "bad_frame",
    message: `bad frame: ${issue ? `${issue.path.join(".") || "type"}: ${issue.message}` : "invalid"}`,
    rfqId: (type === "bid" || type === "decline" || type === "signed") && typeof rfqId === "string" ? rfqId : null,
  };
}

/** Sends a frame; a socket that is closing is skipped, never thrown from. */
export function send(ws: WebSocket, frame: RelayFrame): void {
  try {
    ws.send(JSON.stringify(frame));
  } catch {
    // The node is gone; its close event cleans up.
  }
}

/** Closes a socket; one already closed is left as it is. */
export function close(ws: WebSocket, code: number, reason: string): void {
  try {
    ws.close(code, reason);
  } catch {
    // already closed
  }
}
