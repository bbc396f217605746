import { TERMINAL_EVENTS, TIMELINE_EVENTS } from "./timeline.js";

/**
 * Follows a quote's timeline through `GET /v1/quotes/{id}/events` (docs/api.md, "Event streams"): the
 * history first, then each event as it happens. The relay closes the stream after its last event; the
 * browser's `EventSource` would connect again, so the page closes it itself: at once after `final`,
 * `failed` or `cancelled`, and when the relay closes it after `expired` (an expired quote whose fill was
 * on its way stays followed). Any other drop is resumed by the browser with `Last-Event-ID`, without
 * repeats.
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
  let last = null;
  let closed = false;
  const end = (state) => {
    closed = true;
    source.close();
    onState(state);
  };
  source.addEventListener("open", () => onState("live"));
  source.addEventListener("error", () => {
    if (closed) return;
    if (TERMINAL_EVENTS.has(last)) end("ended");
    else if (source.readyState === EventSource.CLOSED) end("unavailable");
    else onState("reconnecting");
  });
  for (const name of TIMELINE_EVENTS) {
    source.addEventListener(name, (event) => {
      last = name;
      const entry = entryOf(name, event.data);
      if (entry) onEntry(Number(event.lastEventId), entry);
      if (TERMINAL_EVENTS.has(name) && name !== "expired") end("ended");
    });
  }
  return {
    close: () => {
      closed = true;
      source.close();
    },
  };
}

/**
 * An event's data as a timeline entry `{at, event, detail}`; the `cancelled` event's data is
 * `{at, status}`, so the entry is built from the event's name.
 */
function entryOf(name, data) {
  try {
    const parsed = JSON.parse(data);
    return typeof parsed?.at === "string" ? { at: parsed.at, event: name, detail: parsed.detail ?? null } : null;
  } catch {
    return null;
  }
}
