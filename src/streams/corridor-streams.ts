import { StreamHub } from "./hub";
import { streamResponse } from "./response";
import { readSubject, type StreamAsk, subjectOf } from "./subjects";

/** What a corridor's streams need from their object. */
export interface CorridorStreamsHost {
  db: D1Database;
  /** The corridor's records' database (docs/capacity.md, "Records by corridor"): its quotes are read there. */
  records: D1Database;
  /** Copies the corridor's queued writes to D1 (docs/architecture.md, "Write-behind"). */
  drain(): Promise<void>;
  /** The open streams it holds at most, for all clients (`limits.streamsPerCorridor`). */
  perCorridor: number;
}

/**
 * The event streams a corridor hosts (docs/api.md, "Event streams"): the hub of open streams, fed from
 * D1. Each call that moves them returns when `tick` is due next (null while no stream is open), for the
 * object to keep its alarm armed.
 */
export class CorridorStreams {
  /** Open streams by topic. */
  private readonly hub: StreamHub;

  constructor(private readonly host: CorridorStreamsHost) {
    this.hub = new StreamHub({ read: (topic) => this.read(topic), now: () => Date.now() }, host.perCorridor);
  }

  /** A taker's stream request, routed here by the Worker; with when `tick` is due next. */
  async open(ask: StreamAsk): Promise<{ response: Response; nextAt: number | null }> {
    const response = streamResponse(await this.hub.open(ask.topic, ask.client, ask.last, ask.perClient));
    return { response, nextAt: this.hub.nextAt() };
  }

  /** The subjects of `topics` moved: their open streams get what is new; when `tick` is due next. */
  async changed(...topics: string[]): Promise<number | null> {
    for (const topic of topics) await this.hub.changed(topic);
    return this.hub.nextAt();
  }

  /** The alarm's part: keep-alives, closes and reads due; when it is due next, null while no stream is open. */
  async tick(): Promise<number | null> {
    await this.hub.tick();
    return this.hub.nextAt();
  }

  /**
   * Reads a stream's subject from D1; a quote D1 does not have yet may still be in this corridor's
   * write-behind queue, so the queue is copied first and the quote read again.
   */
  private async read(topic: string) {
    const subject = subjectOf(topic);
    if (!subject) return null;
    const db = subject.kind === "quote" ? this.host.records : this.host.db;
    const read = await readSubject(db, subject, Date.now());
    if (read || subject.kind !== "quote") return read;
    await this.host.drain();
    return readSubject(db, subject, Date.now());
  }
}
