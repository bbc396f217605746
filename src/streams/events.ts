import type { LimitOrderProgress, QuoteProgress } from "../db";
import { isOpen, isQuoteTerminal, isTerminal } from "../states";

/**
 * What the event streams of quotes and limit orders carry (docs/api.md, "Event streams"). Pure: the
 * stream host reads a quote's progress or an order's events from D1 and these functions say which events
 * they make and whether the stream is over.
 */
export interface StreamEvent {
  /** The event's place in its stream, from 1; a reconnect's `Last-Event-ID` resumes after it. */
  id: number;
  event: string;
  data: unknown;
}

/** What one read of a stream's subject gives: all its events so far, and whether more can follow. */
export interface StreamRead {
  events: StreamEvent[];
  ended: boolean;
  /** When to read again unasked (a quote's expiry), or null. */
  wakeAt: number | null;
}

/**
 * A quote's events: its timeline entries, then, for a cancelled quote (whose timeline has no event for
 * it), one `cancelled` event with the time of the cancel. The stream is over after `final`, or once the
 * quote failed, was cancelled, or expired with no fill on its way.
 */
export function quoteStream(progress: QuoteProgress): StreamRead {
  const events: StreamEvent[] = progress.timeline.map((entry, i) => ({ id: i + 1, event: entry.event, data: entry }));
  if (progress.status === "cancelled") {
    events.push({ id: events.length + 1, event: "cancelled", data: { at: progress.updatedAt, status: "cancelled" } });
  }
  const ended =
    progress.timeline.some((e) => e.event === "final") ||
    isQuoteTerminal(progress.status) ||
    (progress.status === "expired" && !progress.claimed);
  return { events, ended, wakeAt: isOpen(progress.status) ? Date.parse(progress.expiresAt) : null };
}

/** An order's events: each status it took, with the record's changing fields; over at a terminal status. */
export function limitOrderStream(progress: LimitOrderProgress): StreamRead {
  const events = progress.events.map((m, i) => ({ id: i + 1, event: m.status, data: { at: m.at, ...m.data } }));
  const open = progress.status === "open";
  return { events, ended: isTerminal(progress.status), wakeAt: open ? Date.parse(progress.expiresAt) : null };
}

/**
 * The id a reconnecting client last saw (`Last-Event-ID`): 0 when absent (replay everything), null when
 * it is not one this relay gave.
 */
export function lastEventId(header: string | null): number | null {
  if (header === null || header.trim() === "") return 0;
  return /^\d{1,9}$/.test(header.trim()) ? Number(header.trim()) : null;
}

/** One event in the `text/event-stream` format. */
export function sseEvent(e: StreamEvent): string {
  return `id: ${e.id}\nevent: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;
}

/** A comment line, which clients ignore and proxies see as traffic. */
export const sseComment = (text: string) => `: ${text}\n\n`;
