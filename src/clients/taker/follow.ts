import { quoteStream } from "../../streams/events";
import type { Execution, Quote, TimelineEntry } from "./api";
import { getExecution, getQuote, type RelayCallOptions, RelayHttpError } from "./relay";
import { sseMessages } from "./sse";

/**
 * Following a quote (docs/api.md, "Event streams"): `follow` reads the quote's event stream, reconnecting
 * with `Last-Event-ID` when it drops, and falls back to polling `GET /v1/quotes/{id}` when the stream
 * cannot be opened; either way each event comes once, in order, with the stream's ids.
 */

/** A timeline entry as its event, or the `cancelled` event that ends a cancelled quote's stream. */
export type QuoteEvent =
  | { id: number; event: TimelineEntry["event"]; data: TimelineEntry }
  | { id: number; event: "cancelled"; data: { at: string; status: "cancelled" } };

/** Events after which the relay closes a quote's stream. */
const END_EVENTS = new Set(["final", "failed", "cancelled", "expired"]);

export interface FollowStreamOptions extends RelayCallOptions {
  /** Polling interval when the stream cannot be opened; default 500 ms. */
  intervalMs?: number;
  /** Streams that drop in a row before polling instead; default 3. */
  reconnects?: number;
  /** Told once if the stream cannot be used and polling takes over. */
  onFallback?: (why: string) => void;
}

export async function* follow(
  relayUrl: string,
  quoteId: string,
  options: FollowStreamOptions = {},
): AsyncGenerator<QuoteEvent> {
  const url = `${relayUrl.replace(/\/+$/, "")}/v1/quotes/${encodeURIComponent(quoteId)}/events`;
  let last = 0;
  let lastEvent: string | null = null;
  let drops = 0;
  for (;;) {
    const opened = await openStream(url, last, options);
    if (typeof opened === "string") {
      options.onFallback?.(opened);
      yield* poll(relayUrl, quoteId, last, options);
      return;
    }
    try {
      for await (const m of sseMessages(opened)) {
        const id = Number(m.id);
        if (!Number.isInteger(id) || id <= last) continue;
        last = id;
        lastEvent = m.event;
        drops = 0;
        yield { id, event: m.event, data: JSON.parse(m.data) } as QuoteEvent;
      }
    } catch (e) {
      if (options.signal?.aborted) throw e;
    }
    // The relay closes the stream after its last event; any other close is a drop, resumed after `last`.
    if (lastEvent !== null && END_EVENTS.has(lastEvent)) return;
    if (++drops > (options.reconnects ?? 3)) {
      options.onFallback?.("the stream kept dropping");
      yield* poll(relayUrl, quoteId, last, options);
      return;
    }
    await sleep(1_000, options.signal);
  }
}

/** The open stream's body, or why it cannot be used; an unknown quote throws RelayHttpError `not_found`. */
async function openStream(
  url: string,
  last: number,
  options: FollowStreamOptions,
): Promise<ReadableStream<Uint8Array> | string> {
  let res: Response;
  try {
    res = await (options.fetch ?? fetch)(url, {
      headers: { accept: "text/event-stream", ...(last > 0 ? { "Last-Event-ID": String(last) } : {}) },
      signal: options.signal ?? null,
    });
  } catch (e) {
    if (options.signal?.aborted) throw e;
    return `the stream could not be opened: ${String(e)}`;
  }
  if (res.status === 404) {
    const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    throw new RelayHttpError(404, "not_found", String(body.message ?? "no such quote"), body);
  }
  if (res.ok && res.body && res.headers.get("content-type")?.startsWith("text/event-stream")) return res.body;
  await res.body?.cancel().catch(() => {});
  return `the stream answered ${res.status}`;
}

/** The same events from `GET /v1/quotes/{id}`, polled until the quote's last one. */
async function* poll(
  relayUrl: string,
  quoteId: string,
  after: number,
  options: FollowStreamOptions,
): AsyncGenerator<QuoteEvent> {
  let last = after;
  for (;;) {
    const quote = await getQuote(relayUrl, quoteId, options);
    const read = quoteStream({
      status: quote.status,
      expiresAt: quote.expiresAt,
      updatedAt: new Date().toISOString(),
      claimed: false,
      timeline: quote.timeline,
    });
    for (const e of read.events) {
      if (e.id <= last) continue;
      last = e.id;
      yield e as QuoteEvent;
    }
    if (read.ended) return;
    await sleep(options.intervalMs ?? 500, options.signal);
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/** Why following a quote stopped short of `final`. */
export class SwapNotFinalError extends Error {
  override readonly name = "SwapNotFinalError";
  constructor(
    message: string,
    readonly quote: Quote | null,
    readonly execution: Execution | null,
  ) {
    super(message);
  }
}

export interface FollowOptions extends FollowStreamOptions {
  /** Also read this execution (`GET /v1/executions/{id}`) when the quote ends or is requoted. */
  executionId?: string;
  /** Default 60 s. */
  timeoutMs?: number;
  /** Each event of the quote's stream once, in order, as it happens. */
  onEvent?: (event: QuoteEvent) => void;
  /** The execution as it was when the quote ended (or was requoted). */
  onExecution?: (execution: Execution) => void;
}

/**
 * Follows the quote until it is `final`; returns it and its execution as they are then. Throws a
 * SwapNotFinalError when the quote fails, expires or is cancelled, when the submission is requoted, or at
 * the timeout.
 */
export async function followToFinal(
  relayUrl: string,
  quoteId: string,
  options: FollowOptions = {},
): Promise<{ quote: Quote; execution: Execution | null }> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const read = async () => {
    const [quote, execution] = await Promise.all([
      getQuote(relayUrl, quoteId, options),
      options.executionId ? getExecution(relayUrl, options.executionId, options) : Promise.resolve(null),
    ]);
    if (execution) options.onExecution?.(execution);
    return { quote, execution };
  };
  try {
    for await (const e of follow(relayUrl, quoteId, { ...options, signal })) {
      options.onEvent?.(e);
      if (e.event === "requote") {
        const { quote, execution } = await read();
        throw new SwapNotFinalError(
          `submission requoted: ${execution?.reason ?? "see the execution"}`,
          quote,
          execution,
        );
      }
    }
  } catch (e) {
    if (!timeout.aborted) throw e;
    const { quote, execution } = await read();
    throw new SwapNotFinalError(
      `quote ${quoteId} not final in ${timeoutMs} ms (status ${quote.status})`,
      quote,
      execution,
    );
  }
  const { quote, execution } = await read();
  if (quote.final) return { quote, execution };
  const why = execution?.reason ? `: ${execution.reason}` : "";
  throw new SwapNotFinalError(`quote ${quoteId} is ${quote.status}${why}`, quote, execution);
}
