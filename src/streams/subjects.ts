import { expireIfDue, expireLimitOrders, readLimitOrderProgress, readQuoteProgress } from "../db";
import { isOpen } from "../states";
import { limitOrderStream, quoteStream, type StreamRead } from "./events";

/** What a stream follows (docs/api.md, "Event streams"); a topic names one in the stream host. */
export type Subject = { kind: "quote"; id: string } | { kind: "limitOrder"; id: string };

export const quoteTopic = (id: string) => `quote:${id}`;
export const limitOrderTopic = (id: string) => `limitOrder:${id}`;

export function subjectOf(topic: string): Subject | null {
  const at = topic.indexOf(":");
  const kind = topic.slice(0, at);
  const id = topic.slice(at + 1);
  return kind === "quote" || kind === "limitOrder" ? { kind, id } : null;
}

/**
 * All events of a subject so far, from D1; null when D1 has no such subject. An open quote or order past
 * its expiry is recorded as expired first (as their `GET` routes do), so a stream sees the expiry when it
 * is due rather than at the keeper's next sweep.
 */
export async function readSubject(db: D1Database, subject: Subject, now: number): Promise<StreamRead | null> {
  const at = new Date(now).toISOString();
  if (subject.kind === "limitOrder") {
    let order = await readLimitOrderProgress(db, subject.id);
    if (order?.status === "open" && order.expiresAt <= at) {
      await expireLimitOrders(db, at, subject.id);
      order = await readLimitOrderProgress(db, subject.id);
    }
    return order && limitOrderStream(order);
  }
  let progress = await readQuoteProgress(db, subject.id);
  if (progress && isOpen(progress.status) && progress.expiresAt <= at) {
    await expireIfDue(db, subject.id, at);
    progress = await readQuoteProgress(db, subject.id);
  }
  return progress && quoteStream(progress);
}

const STREAM_PATH = "/streams/";

/**
 * What the Worker asks a stream host for: a stream of `topic` for `client`, after event `last`, the client
 * holding at most `perClient` streams there.
 */
export interface StreamAsk {
  topic: string;
  last: number;
  client: string;
  perClient: number;
}

export function streamRequest(ask: StreamAsk): Request {
  return new Request(`https://stream-host${STREAM_PATH}${encodeURIComponent(ask.topic)}`, {
    headers: {
      "Last-Event-ID": String(ask.last),
      "X-Stream-Client": ask.client,
      "X-Stream-Limit": String(ask.perClient),
    },
  });
}

/** The ask in a request to the host; null for any other request (a node's connect). */
export function streamAsked(request: Request): StreamAsk | null {
  const path = new URL(request.url).pathname;
  if (!path.startsWith(STREAM_PATH)) return null;
  return {
    topic: decodeURIComponent(path.slice(STREAM_PATH.length)),
    last: Number(request.headers.get("Last-Event-ID") ?? 0),
    client: request.headers.get("X-Stream-Client") ?? "",
    perClient: Number(request.headers.get("X-Stream-Limit") ?? 1),
  };
}
