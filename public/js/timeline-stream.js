import { TERMINAL_EVENTS, TIMELINE_EVENTS } from "./timeline.js";

/**
 * Follows a quote's timeline through `GET /v1/quotes/{id}/events` (docs/api.md): the history first,
 * then each event as it happens. The relay ends the stream after a terminal event; the page closes it
 * itself on receiving one, or the browser would connect again. A dropped connection is resumed by the
 * browser with `Last-Event-ID`, so nothing is delivered twice.
 *
 * @param {string} quoteId
 * @param {{
 *   onEntry: (position: number, entry: {at: string, event: string, detail: unknown}) => void,
 *   onState: (state: "live" | "reconnecting" | "ended" | "unavailable") => void,
 * }} handlers
 * @returns {{close: () => void}}
 */
export function followTimeline(quoteId, { onEntry, onState }) {
  const source = new EventSource(`/v1/quotes/${encodeURIComponent(quoteId)}/events`);
  let ended = false;
  source.addEventListener("open", () => onState("live"));
  source.addEventListener("error", () => {
    if (ended) return;
    onState(source.readyState === EventSource.CLOSED ? "unavailable" : "reconnecting");
  });
  for (const name of TIMELINE_EVENTS) {
    source.addEventListener(name, (event) => {
      const entry = parse(event.data);
      if (entry) onEntry(Number(event.lastEventId), entry);
      if (TERMINAL_EVENTS.has(name)) {
        ended = true;
        source.close();
        onState("ended");
      }
    });
  }
  return {
    close: () => {
      ended = true;
      source.close();
    },
  };
}

function parse(data) {
  try {
    const entry = JSON.parse(data);
    return entry && typeof entry.event === "string" ? entry : null;
  } catch {
    return null;
  }
}
