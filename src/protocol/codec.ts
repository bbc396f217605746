import { MAX_FRAME_BYTES } from "./frame-limits";
import { type NodeFrame, nodeFrame } from "./node-frames";
import type { RelayFrame } from "./relay-frames";

/** A node's frame, or why it is not one; a malformed reply keeps the `rfqId` it names, so it can count as rejected. */
export type ParsedNodeFrame =
  | { ok: true; frame: NodeFrame }
  | { ok: false; message: string; rfqId: string | null; type: string | null };

const NOT_JSON = "frames are JSON text";

/** Parses a node's WebSocket message against the node frame schema. */
export function parseNodeFrame(message: string | ArrayBuffer): ParsedNodeFrame {
  if (typeof message !== "string") return { ok: false, message: NOT_JSON, rfqId: null, type: null };
  let json: unknown;
  try {
    json = JSON.parse(message);
  } catch {
    return { ok: false, message: NOT_JSON, rfqId: null, type: null };
  }
  const result = nodeFrame.safeParse(json);
  if (result.success) return { ok: true, frame: result.data };
  const issue = result.error.issues[0];
  const { type, rfqId } = (typeof json === "object" && json !== null ? json : {}) as Record<string, unknown>;
  return {
    ok: false,
    message: `bad frame: ${issue ? `${issue.path.join(".") || "type"}: ${issue.message}` : "invalid"}`,
    rfqId: (type === "bid" || type === "decline") && typeof rfqId === "string" ? rfqId : null,
    type: typeof type === "string" ? type : null,
  };
}

const encoder = new TextEncoder();

/**
 * The size a message counts for against MAX_FRAME_BYTES: its bytes (UTF-8), counted only when its
 * length in characters leaves any doubt (a character is at most three UTF-8 bytes here).
 */
export const frameSize = (message: string | ArrayBuffer): number =>
  typeof message !== "string"
    ? message.byteLength
    : message.length * 3 <= MAX_FRAME_BYTES
      ? message.length
      : encoder.encode(message).byteLength;

/** Sends a frame; a socket that is closing is skipped, never thrown from. */
export function send(ws: WebSocket, frame: RelayFrame): void {
  sendText(ws, JSON.stringify(frame));
}

/** Sends a frame already serialized, as one frame for many sockets is, once (`JSON.stringify`). */
export function sendText(ws: WebSocket, text: string): void {
  try {
    ws.send(text);
  } catch {
    // The node is gone; its close event cleans up.
  }
}

/** Closes a socket that may already be closed. */
export function close(ws: WebSocket, code: number, reason: string): void {
  try {
    ws.close(code, reason);
  } catch {
    // already closed
  }
}

/** Completes a close the node began, so it sees it acknowledged (1005 and 1006 are never sent, so 1000 for them). */
export function acknowledgeClose(ws: WebSocket, code: number, reason: string): void {
  close(ws, code === 1005 || code === 1006 ? 1000 : code, reason);
}
