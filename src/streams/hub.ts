import { overShare } from "../limits";
import { type StreamRead, sseComment, sseEvent } from "./events";

/**
 * The open event streams of one stream host (a corridor object; docs/api.md, "Event streams"). Streams of
 * one subject (a quote, a limit order) share a topic: one D1 read serves them all, and a read happens when
 * the subject changed (`changed`), when a stream opens, every `rereadMs` while streams are open (so a
 * lost notification costs seconds, not the stream), and at the subject's own wake time (a quote's
 * expiry). Each stream gets the events after the last one it has, once each, in order.
 */
export const STREAM_LIMITS = {
  /** A comment is sent on a stream quiet this long, so proxies keep it open. */
  keepAliveMs: 15_000,
  /** Open topics are read again this often even unasked. */
  rereadMs: 5_000,
  /** A stream is closed after this long; the client reconnects with `Last-Event-ID` and loses nothing. */
  maxAgeMs: 10 * 60_000,
  /** The reconnect delay the stream asks clients for (`retry:`). */
  retryMs: 1_000,
  /** Chunks a stream may have waiting for a slow reader before it is dropped. */
  maxQueued: 256,
} as const;

/** The stream hub's port: its stream host's reads of a subject's events, and its clock. */
export interface StreamHubPort {
  /** All events of the subject so far; null when there is no such subject; rejects when the read fails. */
  read(topic: string): Promise<StreamRead | null>;
  now(): number;
}

/** `over`: the subject has ended and the client has every event already (docs/api.md, "Event streams"). */
/** `too_many`: the client holds its limit here; `busy`: the host holds its own (docs/security.md, "Limits"). */
export type OpenOutcome = ReadableStream<Uint8Array> | "over" | "not_found" | "too_many" | "busy" | "unavailable";

interface Stream {
  topic: string;
  client: string;
  writer: WritableStreamDefaultWriter<Uint8Array>;
  /** The id of the last event it was sent. */
  last: number;
  openedAt: number;
  wroteAt: number;
}

interface Topic {
  streams: Set<Stream>;
  reading: Promise<void> | null;
  /** A change was announced while a read was under way: read once more after it. */
  again: boolean;
  /** What the last read found: undefined before a read succeeded. */
  found: boolean | undefined;
  /** Whether the last read found the subject over: no event will follow. */
  ended: boolean;
  readAt: number;
  wakeAt: number | null;
}

const encoder = new TextEncoder();

export class StreamHub {
  private readonly topics = new Map<string, Topic>();

  /** `perCorridor`: the open streams the host holds at most, for all clients (`limits.streamsPerCorridor`). */
  constructor(
    private readonly port: StreamHubPort,
    private readonly perCorridor: number,
  ) {}

  /**
   * Opens a stream of `topic` for `client`, resuming after event `last`, unless the client already holds
   * `perClient` streams here or the host is past its share for the client (src/limits/corridor-share.ts;
   * docs/security.md, "Limits"); the history is queued on it at once.
   */
  async open(topic: string, client: string, last: number, perClient: number): Promise<OpenOutcome> {
    const streams = [...this.streams()];
    const held = streams.filter((s) => s.client === client).length;
    const over = overShare(held, streams.length, perClient, this.perCorridor);
    if (over) return over === "client" ? "too_many" : "busy";
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    const now = this.port.now();
    const stream: Stream = { topic, client, writer: writable.getWriter(), last, openedAt: now, wroteAt: now };
    stream.writer.closed.catch(() => this.drop(stream));
    const t = this.topic(topic);
    t.streams.add(stream);
    this.write(stream, `retry: ${STREAM_LIMITS.retryMs}\n\n`);
    await this.refresh(topic);
    // A client that has every event of a subject that is over is told so (204): an EventSource stops
    // reconnecting at that, where an empty 200 would have it reconnect for ever.
    if (t.found === true) return t.ended && stream.last === last ? "over" : readable;
    this.drop(stream);
    return t.found === false ? "not_found" : "unavailable";
  }

  /** The subject of `topic` changed: its streams get what is new (nothing is read when none is open). */
  changed(topic: string): Promise<void> {
    return this.refresh(topic);
  }

  /** Keep-alives, closes of streams past their age, and reads of topics due; idempotent. */
  async tick(): Promise<void> {
    const now = this.port.now();
    const reads: Promise<void>[] = [];
    for (const [key, topic] of this.topics) {
      for (const s of topic.streams) {
        if (now - s.openedAt >= STREAM_LIMITS.maxAgeMs) this.close(s);
        else if (now - s.wroteAt >= STREAM_LIMITS.keepAliveMs) this.write(s, sseComment("keep-alive"));
      }
      const due = now - topic.readAt >= STREAM_LIMITS.rereadMs || (topic.wakeAt !== null && now >= topic.wakeAt);
      if (due) reads.push(this.refresh(key));
    }
    await Promise.all(reads);
  }

  /** When `tick` has work next: null while no stream is open. */
  nextAt(): number | null {
    let next: number | null = null;
    const sooner = (t: number) => {
      next = next === null ? t : Math.min(next, t);
    };
    for (const topic of this.topics.values()) {
      if (topic.streams.size === 0) continue;
      sooner(topic.readAt + STREAM_LIMITS.rereadMs);
      if (topic.wakeAt !== null) sooner(topic.wakeAt);
      for (const s of topic.streams) {
        sooner(s.wroteAt + STREAM_LIMITS.keepAliveMs);
        sooner(s.openedAt + STREAM_LIMITS.maxAgeMs);
      }
    }
    return next;
  }

  private *streams(): Iterable<Stream> {
    for (const topic of this.topics.values()) yield* topic.streams;
  }

  private topic(key: string): Topic {
    let t = this.topics.get(key);
    if (!t) {
      t = { streams: new Set(), reading: null, again: false, found: undefined, ended: false, readAt: 0, wakeAt: null };
      this.topics.set(key, t);
    }
    return t;
  }

  /** Reads the topic and delivers; one read at a time per topic, and once more if a change came meanwhile. */
  private refresh(key: string): Promise<void> {
    const topic = this.topics.get(key);
    if (!topic || topic.streams.size === 0) return Promise.resolve();
    if (topic.reading) {
      topic.again = true;
      return topic.reading;
    }
    topic.reading = (async () => {
      try {
        do {
          topic.again = false;
          const read = await this.port.read(key).then(
            (r) => r,
            () => undefined,
          );
          this.deliver(topic, read);
        } while (topic.again && topic.streams.size > 0);
      } finally {
        topic.reading = null;
        if (topic.streams.size === 0 && this.topics.get(key) === topic) this.topics.delete(key);
      }
    })();
    return topic.reading;
  }

  /** Sends each stream of the topic the events after its last; closes them all when the subject is over. */
  private deliver(topic: Topic, read: StreamRead | null | undefined): void {
    if (read === undefined) return; // the read failed: the next tick reads again
    topic.readAt = this.port.now();
    if (read === null) {
      topic.found = false;
      return;
    }
    topic.found = true;
    topic.ended = read.ended;
    topic.wakeAt = read.wakeAt;
    for (const s of topic.streams) {
      for (const e of read.events) {
        if (e.id <= s.last) continue;
        this.write(s, sseEvent(e));
        s.last = e.id;
      }
      if (read.ended) this.close(s);
    }
  }

  private write(s: Stream, text: string): void {
    if ((s.writer.desiredSize ?? 0) < -STREAM_LIMITS.maxQueued) {
      this.close(s);
      return;
    }
    s.wroteAt = this.port.now();
    s.writer.write(encoder.encode(text)).catch(() => this.drop(s));
  }

  private close(s: Stream): void {
    this.drop(s);
    s.writer.close().catch(() => {});
  }

  private drop(s: Stream): void {
    const topic = this.topics.get(s.topic);
    if (!topic?.streams.delete(s)) return;
    if (topic.streams.size === 0 && !topic.reading) this.topics.delete(s.topic);
  }
}
