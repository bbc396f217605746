import { describe, expect, it } from "vitest";
import { SseParser } from "../../src/clients/taker/sse";
import type { QuoteProgress } from "../../src/db/quotes";
import { lastEventId, limitOrderStream, quoteStream, sseEvent } from "../../src/streams/events";

/** What the event streams carry and when they end (src/streams/events.ts; docs/api.md, "Event streams"). */

const at = "2026-11-22T10:00:00.000Z";
const progress = (over: Partial<QuoteProgress>): QuoteProgress => ({
  status: "quoted",
  expiresAt: "2026-11-22T10:00:30.000Z",
  updatedAt: at,
  claimed: false,
  timeline: [
    { at, event: "requested", detail: null },
    { at, event: "quoted", detail: { latencyMs: 12 } },
  ],
  ...over,
});

describe("a quote's stream", () => {
  it("numbers the timeline from 1 and wakes at an open quote's expiry", () => {
    const read = quoteStream(progress({}));
    expect(read.events.map((e) => [e.id, e.event])).toEqual([
      [1, "requested"],
      [2, "quoted"],
    ]);
    expect(read.events[1]?.data).toEqual({ at, event: "quoted", detail: { latencyMs: 12 } });
    expect(read).toMatchObject({ ended: false, wakeAt: Date.parse("2026-11-22T10:00:30.000Z") });
  });

  it("ends after final, or once failed, cancelled, or expired with no fill on its way", () => {
    const final = progress({
      status: "settled",
      timeline: [...progress({}).timeline, { at, event: "final", detail: null }],
    });
    expect(quoteStream(final)).toMatchObject({ ended: true, wakeAt: null });
    expect(quoteStream(progress({ status: "settled" })).ended).toBe(false);
    expect(quoteStream(progress({ status: "failed" })).ended).toBe(true);
    expect(quoteStream(progress({ status: "expired" })).ended).toBe(true);
    expect(quoteStream(progress({ status: "expired", claimed: true })).ended).toBe(false);
  });

  it("closes a cancelled quote's stream with a cancelled event after its timeline", () => {
    const read = quoteStream(progress({ status: "cancelled", updatedAt: "2026-11-22T10:00:05.000Z" }));
    expect(read.events.at(-1)).toEqual({
      id: 3,
      event: "cancelled",
      data: { at: "2026-11-22T10:00:05.000Z", status: "cancelled" },
    });
    expect(read.ended).toBe(true);
  });
});

describe("a limit order's stream", () => {
  it("is each status the order took, with the changing fields; over at a terminal status", () => {
    const moves = [
      { at, status: "open" as const, data: { status: "open", attempts: 0 } },
      { at, status: "filling" as const, data: { status: "filling", quoteId: "q_1", attempts: 1 } },
    ];
    const read = limitOrderStream({ status: "filling", expiresAt: at, events: moves });
    expect(read.events).toEqual([
      { id: 1, event: "open", data: { at, status: "open", attempts: 0 } },
      { id: 2, event: "filling", data: { at, status: "filling", quoteId: "q_1", attempts: 1 } },
    ]);
    expect(read).toMatchObject({ ended: false, wakeAt: null });
    expect(limitOrderStream({ status: "open", expiresAt: at, events: moves.slice(0, 1) }).wakeAt).toBe(Date.parse(at));
    expect(limitOrderStream({ status: "filled", expiresAt: at, events: moves }).ended).toBe(true);
  });
});

describe("Last-Event-ID", () => {
  it("is 0 when absent, the id when it is one, null otherwise", () => {
    expect(lastEventId(null)).toBe(0);
    expect(lastEventId("")).toBe(0);
    expect(lastEventId("7")).toBe(7);
    expect(lastEventId("-1")).toBeNull();
    expect(lastEventId("7x")).toBeNull();
    expect(lastEventId("1e3")).toBeNull();
  });
});

describe("the event-stream format", () => {
  it("round-trips an event through the taker library's parser, however the text is cut", () => {
    const text = `${sseEvent({ id: 4, event: "settled", data: { block: 12, note: "a\nb" } })}: keep-alive\n\n`;
    for (let cut = 0; cut <= text.length; cut++) {
      const parser = new SseParser();
      const messages = [...parser.push(text.slice(0, cut)), ...parser.push(text.slice(cut))];
      expect(messages).toEqual([{ id: "4", event: "settled", data: '{"block":12,"note":"a\\nb"}' }]);
    }
  });

  it("reads CRLF and CR line ends, several data lines, and keeps the last id", () => {
    const parser = new SseParser();
    expect(parser.push("id: 1\r\nevent: a\r\ndata: x\r\ndata: y\r\n\r\ndata: z\r\r: c\n")).toEqual([
      { id: "1", event: "a", data: "x\ny" },
      { id: "1", event: "message", data: "z" },
    ]);
  });
});
