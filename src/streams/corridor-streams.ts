import { StreamHub } from "./hub";
import { streamResponse } from "./response";
import { readSubject, type StreamAsk, subjectOf } from "./subjects";

/** What a corridor's streams need from their object. */
export interface CorridorStreamsHost {
  db: D1Database;
  /** Copies the corridor's queued writes to D1 (docs/architecture.md, "Write-behind"). */
  drain(): Promise<void>;
  /** Makes sure `tick` runs by `at`. */
  wakeBy(at: number): Promise<void>;
}

/**
 * The event streams a corridor hosts (docs/api.md, "Event streams"): the hub of open streams, fed from
 * D1, and the object's alarm kept armed for their next keep-alive or read.
 */
export class CorridorStreams {
  /** Open streams by topic; public for tests (`runInDurableObject`). */
  readonly hub: StreamHub;

  constructor(private readonly host: CorridorStreamsHost) {
    this.hub = new StreamHub({ read: (topic) => this.read(topic), now: () => Date.now() });
  }

  /** A taker's stream request, routed here by the Worker. */
  async open(ask: StreamAsk): Promise<Response> {
    const response = streamResponse(await this.hub.open(ask.topic, ask.client, ask.last, ask.perClient));
    await this.wake();
    return response;
  }

  /** The subject of `topic` moved: its open streams get what is new. */
  async changed(topic: string): Promise<void> {
    await this.hub.changed(topic);
    await this.wake();
  }

  /** The alarm's part: keep-alives, closes and reads due; when it is due next, null while no stream is open. */
  async tick(): Promise<number | null> {
    await this.hub.tick();
    return this.hub.nextAt();
  }

  private async wake(): Promise<void> {
    const next = this.hub.nextAt();
    if (next !== null) await this.host.wakeBy(next);
  }

  /**
   * Reads a stream's subject from D1; a quote D1 does not have yet may still be in this corridor's
   * write-behind queue, so the queue is copied first and the quote read again.
   */
  private async read(topic: string) {
    const subject = subjectOf(topic);
    if (!subject) return null;
    const read = await readSubject(this.host.db, subject, Date.now());
    if (read || subject.kind !== "quote") return read;
    await this.host.drain();
    return readSubject(this.host.db, subject, Date.now());
  }
}
