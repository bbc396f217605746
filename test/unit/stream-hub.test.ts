import { describe, expect, it } from "vitest";
import { type OpenOutcome, STREAM_LIMITS, StreamHub } from "../../src/streams/hub";
import { fakeStreamHubPort } from "../support/fake-stream-hub-port";
import { SseClient } from "../support/sse-client";

/** Streams one client may hold on one host, as `limits.streamsPerClient` sets it. */
const PER_CLIENT = 3;

/**
 * The stream host's hub (src/streams/hub.ts; docs/api.md, "Event streams") over a fake subject store and
 * clock: history first, each event once per stream, resumes, ends, limits, keep-alives and rereads.
 */

/** Streams one host holds for all clients, as `limits.streamsPerCorridor` sets it. */
const PER_CORRIDOR = 1_000;

function harness(perCorridor = PER_CORRIDOR) {
  const fake = fakeStreamHubPort();
  return { ...fake, hub: new StreamHub(fake.port, perCorridor) };
}

/** A client of an opened stream. */
function client(outcome: OpenOutcome) {
  if (!(outcome instanceof ReadableStream)) throw new Error(`not a stream: ${outcome}`);
  const c = new SseClient(outcome);
  return Object.assign(c, {
    /** Ids and names only, of what arrived so far. */
    names: async () => (await c.take()).map((e) => ({ id: e.id, event: e.event })),
  });
}

describe("the stream hub", () => {
  it("replays the history first, then each new event once, and closes after the subject ends", async () => {
    const h = harness();
    h.add("quote:q1", "requested", "quoted");
    const c = client(await h.hub.open("quote:q1", "ip1", 0, PER_CLIENT));
    expect(await c.names()).toEqual([
      { id: "1", event: "requested" },
      { id: "2", event: "quoted" },
    ]);
    expect(c.text.startsWith(`retry: ${STREAM_LIMITS.retryMs}\n\n`)).toBe(true);
    h.add("quote:q1", "signed", "submitted");
    await h.hub.changed("quote:q1");
    await h.hub.changed("quote:q1");
    expect(await c.names()).toEqual([
      { id: "3", event: "signed" },
      { id: "4", event: "submitted" },
    ]);
    h.add("quote:q1", "settled", "final");
    h.end("quote:q1");
    await h.hub.changed("quote:q1");
    expect(await c.names()).toEqual([
      { id: "5", event: "settled" },
      { id: "6", event: "final" },
    ]);
    expect(c.done).toBe(true);
    expect(h.hub.nextAt()).toBeNull(); // no stream is open
  });

  it("resumes after Last-Event-ID without repeating what the client has", async () => {
    const h = harness();
    h.add("quote:q1", "requested", "quoted", "signed");
    const c = client(await h.hub.open("quote:q1", "ip1", 2, PER_CLIENT));
    expect(await c.names()).toEqual([{ id: "3", event: "signed" }]);
  });

  it("sends a subject that already ended, then closes at once", async () => {
    const h = harness();
    h.add("quote:q1", "requested", "quoted", "expired");
    h.end("quote:q1");
    const c = client(await h.hub.open("quote:q1", "ip1", 0, PER_CLIENT));
    expect((await c.names()).map((e) => e.event)).toEqual(["requested", "quoted", "expired"]);
    expect(c.done).toBe(true);
  });

  it("answers not_found for an unknown subject, unavailable when its first read fails", async () => {
    const h = harness();
    expect(await h.hub.open("quote:nope", "ip1", 0, PER_CLIENT)).toBe("not_found");
    h.add("quote:q1", "requested");
    h.fail(true);
    expect(await h.hub.open("quote:q1", "ip1", 0, PER_CLIENT)).toBe("unavailable");
    expect(h.hub.nextAt()).toBeNull(); // no stream is open
  });

  it("reads a subject once for all its streams, and not at all when none is open", async () => {
    const h = harness();
    h.add("quote:q1", "requested");
    const a = client(await h.hub.open("quote:q1", "ip1", 0, PER_CLIENT));
    const b = client(await h.hub.open("quote:q1", "ip2", 0, PER_CLIENT));
    const before = h.reads();
    h.add("quote:q1", "quoted");
    await h.hub.changed("quote:q1");
    expect(h.reads() - before).toBe(1);
    expect(await a.take()).toHaveLength(2);
    expect(await b.take()).toHaveLength(2);
    await h.hub.changed("quote:other");
    expect(h.reads() - before).toBe(1);
  });

  it("reads again when a change is announced while a read is under way", async () => {
    const h = harness();
    h.add("quote:q1", "requested");
    const c = client(await h.hub.open("quote:q1", "ip1", 0, PER_CLIENT));
    await c.names();
    const release = h.hold();
    const first = h.hub.changed("quote:q1");
    h.add("quote:q1", "quoted");
    const second = h.hub.changed("quote:q1");
    release();
    await Promise.all([first, second]);
    expect(await c.names()).toEqual([{ id: "2", event: "quoted" }]);
  });

  it("limits open streams per client", async () => {
    const h = harness();
    h.add("quote:q1", "requested");
    for (let i = 0; i < PER_CLIENT; i++) {
      expect(await h.hub.open("quote:q1", "ip1", 0, PER_CLIENT)).toBeInstanceOf(ReadableStream);
    }
    expect(await h.hub.open("quote:q1", "ip1", 0, PER_CLIENT)).toBe("too_many");
    expect(await h.hub.open("quote:q1", "ip2", 0, PER_CLIENT)).toBeInstanceOf(ReadableStream);
  });

  it("caps the host's streams for all clients, the last quarter kept for clients holding none", async () => {
    const h = harness(8);
    h.add("quote:q1", "requested");
    const open = (ip: string) => h.hub.open("quote:q1", ip, 0, PER_CLIENT);
    for (const ip of ["ip1", "ip1", "ip1", "ip2", "ip2", "ip2"]) expect(await open(ip)).toBeInstanceOf(ReadableStream);
    expect(await open("ip3")).toBeInstanceOf(ReadableStream);
    expect(await open("ip3")).toBe("busy");
    expect(await open("ip4")).toBeInstanceOf(ReadableStream);
    expect(await open("ip5")).toBe("busy");
  });

  it("keeps a quiet stream alive with a comment, rereads open subjects, and wakes at the subject's time", async () => {
    const h = harness();
    const s = h.add("quote:q1", "requested");
    s.wakeAt = h.now() + 2_000;
    const c = client(await h.hub.open("quote:q1", "ip1", 0, PER_CLIENT));
    await c.names();
    expect(h.hub.nextAt()).toBe(h.now() + 2_000);
    h.tick(2_000);
    const reads = h.reads();
    s.events.push({ id: 2, event: "expired", data: {} });
    await h.hub.tick();
    expect(h.reads()).toBe(reads + 1);
    expect(await c.names()).toEqual([{ id: "2", event: "expired" }]);
    s.wakeAt = undefined;
    h.tick(STREAM_LIMITS.keepAliveMs);
    await h.hub.tick();
    await c.names();
    expect(c.text.endsWith(": keep-alive\n\n")).toBe(true);
  });

  it("closes a stream past its age; the client resumes where it was", async () => {
    const h = harness();
    h.add("lo:1", "open");
    const c = client(await h.hub.open("lo:1", "ip1", 0, PER_CLIENT));
    await c.names();
    h.tick(STREAM_LIMITS.maxAgeMs);
    await h.hub.tick();
    await c.names();
    expect(c.done).toBe(true);
    expect(h.hub.nextAt()).toBeNull();
  });

  it("keeps streams open through a failed read and delivers on the next", async () => {
    const h = harness();
    h.add("quote:q1", "requested");
    const c = client(await h.hub.open("quote:q1", "ip1", 0, PER_CLIENT));
    await c.names();
    h.fail(true);
    h.add("quote:q1", "quoted");
    await h.hub.changed("quote:q1");
    expect(await c.names()).toEqual([]);
    h.fail(false);
    h.tick(STREAM_LIMITS.rereadMs);
    await h.hub.tick();
    expect(await c.names()).toEqual([{ id: "2", event: "quoted" }]);
  });

  it("forgets a stream whose client went away", async () => {
    const h = harness();
    h.add("quote:q1", "requested");
    const outcome = await h.hub.open("quote:q1", "ip1", 0, PER_CLIENT);
    if (!(outcome instanceof ReadableStream)) throw new Error("no stream");
    await outcome.cancel();
    h.add("quote:q1", "quoted");
    await h.hub.changed("quote:q1");
    await new Promise((r) => setTimeout(r, 5));
    expect(h.hub.nextAt()).toBeNull(); // no stream is open
  });
});
