import { SseParser } from "../../src/clients/taker/sse";

export interface ReceivedEvent {
  id: string | null;
  event: string;
  data: unknown;
}

/**
 * Reads an event stream in a test: what has arrived so far (`take`), or until an event (`until`), with
 * the raw text kept for comments and `done` once the server closed it.
 */
export class SseClient {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly parser = new SseParser();
  private readonly decoder = new TextDecoder();
  /** A read still waiting for a chunk, kept for the next call so no chunk is lost. */
  private pending: Promise<ReadableStreamReadResult<Uint8Array>> | null = null;
  text = "";
  done = false;

  constructor(body: ReadableStream<Uint8Array> | null) {
    if (!body) throw new Error("no body to read");
    this.reader = body.getReader();
  }

  /** Events that arrive within `waitMs` of each other, from now. */
  async take(waitMs = 20): Promise<ReceivedEvent[]> {
    const out: ReceivedEvent[] = [];
    while (!this.done) {
      const chunk = await this.read(waitMs);
      if (chunk === null) break;
      out.push(...chunk);
    }
    return out;
  }

  /** Events up to and including the first named `event`; throws if it has not come within `timeoutMs`. */
  async until(event: string, timeoutMs = 5_000): Promise<ReceivedEvent[]> {
    const deadline = Date.now() + timeoutMs;
    const out: ReceivedEvent[] = [];
    while (!out.some((e) => e.event === event)) {
      const left = deadline - Date.now();
      const chunk = this.done || left <= 0 ? null : await this.read(left);
      if (chunk === null) throw new Error(`no ${event} event in ${timeoutMs} ms; got ${JSON.stringify(out)}`);
      out.push(...chunk);
    }
    return out;
  }

  /** Waits for the server to close the stream, returning what came before. */
  async end(timeoutMs = 5_000): Promise<ReceivedEvent[]> {
    const deadline = Date.now() + timeoutMs;
    const out: ReceivedEvent[] = [];
    while (!this.done) {
      const chunk = await this.read(Math.max(1, deadline - Date.now()));
      if (chunk === null) throw new Error(`the stream did not end in ${timeoutMs} ms`);
      out.push(...chunk);
    }
    return out;
  }

  close(): Promise<void> {
    return this.reader.cancel();
  }

  /** The events of the next chunk; [] at the end of the stream; null if nothing came in `waitMs`. */
  private async read(waitMs: number): Promise<ReceivedEvent[] | null> {
    this.pending ??= this.reader.read();
    const next = await Promise.race([this.pending, new Promise<null>((r) => setTimeout(() => r(null), waitMs))]);
    if (next === null) return null;
    this.pending = null;
    if (next.done) {
      this.done = true;
      return [];
    }
    const text = this.decoder.decode(next.value, { stream: true });
    this.text += text;
    return this.parser.push(text).map((m) => ({ id: m.id, event: m.event, data: JSON.parse(m.data) }));
  }
}
