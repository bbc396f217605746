import { errorJson, notFound, retryLater } from "../errors";
import type { OpenOutcome } from "./hub";

/** Headers of an event stream: never cached, never buffered by a proxy. */
export const SSE_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache, no-transform",
  "X-Accel-Buffering": "no",
} as const;

/** How the stream host answers an open (docs/api.md, "Event streams"). */
export function streamResponse(outcome: OpenOutcome): Response {
  if (outcome instanceof ReadableStream) return new Response(outcome, { headers: SSE_HEADERS });
  if (outcome === "over") return new Response(null, { status: 204 });
  const error =
    outcome === "not_found"
      ? notFound("No such quote or limit order.")
      : outcome === "too_many"
        ? retryLater(429, "rate_limited", "Too many open event streams; close one, or poll.", 10)
        : outcome === "busy"
          ? retryLater(
              503,
              "corridor_busy",
              "The corridor holds as many event streams as it takes; poll, or retry.",
              10,
            )
          : retryLater(503, "stream_unavailable", "The stream could not read its subject; reconnect shortly.", 1);
  return errorJson(error);
}
