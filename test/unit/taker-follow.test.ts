import { describe, expect, it } from "vitest";
import { follow, followToFinal, SwapNotFinalError } from "../../src/clients/taker/follow";
import type { Quote, TimelineEntry } from "../../src/schemas/quote";
import { sseEvent } from "../../src/streams/events";

/**
 * The taker library's `follow` (src/clients/taker/follow.ts) over a fake relay: the stream read as it
 * comes, resumed with Last-Event-ID after a drop, and polling when the stream cannot be opened.
 */

const RELAY = "http://relay.test";
const at = "2026-11-22T10:00:00.000Z";
const entry = (event: TimelineEntry["event"]): TimelineEntry => ({ at, event, detail: null });
const NAMES: TimelineEntry["event"][] = ["requested", "quoted", "signed", "submitted", "settled", "final"];

const sse = (from: number, to: number) =>
  NAMES.slice(from - 1, to)
    .map((name, i) => sseEvent({ id: from + i, event: name, data: entry(name) }))
    .join("");

const streamed = (text: string) =>
  new Response(text, { headers: { "Content-Type": "text/event-stream; charset=utf-8" } });

function record(names: TimelineEntry["event"][], over: Partial<Quote> = {}): Quote {
  return {
    quoteId: "q_1",
    status: "settled",
    final: names.includes("final"),
    timeline: names.map(entry),
    ...over,
  } as Quote;
}

/** A fake relay answering each request with the next of `answers`; records what it was asked. */
function relay(answers: ((req: Request) => Response | Promise<Response>)[]) {
  const asked: { url: string; lastEventId: string | null }[] = [];
  const fetchFake = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    asked.push({ url: req.url, lastEventId: req.headers.get("Last-Event-ID") });
    const answer = answers.shift();
    if (!answer) throw new Error(`unexpected ${req.url}`);
    return answer(req);
  }) as typeof fetch;
  return { fetch: fetchFake, asked };
}

const collect = async <T>(it: AsyncIterable<T>) => {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
};

describe("follow", () => {
  it("yields the stream's events with their ids and stops after the last", async () => {
    const r = relay([() => streamed(`retry: 1000\n\n${sse(1, 6)}`)]);
    const events = await collect(follow(RELAY, "q_1", { fetch: r.fetch }));
    expect(events.map((e) => [e.id, e.event])).toEqual(NAMES.map((n, i) => [i + 1, n]));
    expect(events[5]?.data).toEqual(entry("final"));
    expect(r.asked).toEqual([{ url: `${RELAY}/v1/quotes/q_1/events`, lastEventId: null }]);
  });

  it("reconnects after a drop with Last-Event-ID, and yields nothing twice", async () => {
    const r = relay([() => streamed(sse(1, 3)), () => streamed(sse(3, 6))]);
    const events = await collect(follow(RELAY, "q_1", { fetch: r.fetch }));
    expect(events.map((e) => e.id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(r.asked.map((a) => a.lastEventId)).toEqual([null, "3"]);
  });

  it("polls GET /v1/quotes/{id} when the stream cannot be opened, with the same ids", async () => {
    const fallbacks: string[] = [];
    const r = relay([
      () => new Response("busy", { status: 503 }),
      () => Response.json(record(["requested", "quoted", "signed"], { status: "signed" })),
      () => Response.json(record(NAMES)),
    ]);
    const events = await collect(
      follow(RELAY, "q_1", { fetch: r.fetch, intervalMs: 1, onFallback: (why) => fallbacks.push(why) }),
    );
    expect(events.map((e) => [e.id, e.event])).toEqual(NAMES.map((n, i) => [i + 1, n]));
    expect(fallbacks).toEqual(["the stream answered 503"]);
    expect(r.asked.slice(1).map((a) => a.url)).toEqual([`${RELAY}/v1/quotes/q_1`, `${RELAY}/v1/quotes/q_1`]);
  });

  it("throws not_found for a quote the relay does not have", async () => {
    const r = relay([() => Response.json({ error: "not_found", message: "No quote." }, { status: 404 })]);
    await expect(collect(follow(RELAY, "q_x", { fetch: r.fetch }))).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("followToFinal", () => {
  it("returns the final quote, having told each event as it came", async () => {
    const seen: number[] = [];
    const r = relay([() => streamed(sse(1, 6)), () => Response.json(record(NAMES))]);
    const { quote } = await followToFinal(RELAY, "q_1", { fetch: r.fetch, onEvent: (e) => seen.push(e.id) });
    expect(quote.final).toBe(true);
    expect(seen).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("throws SwapNotFinalError when the quote fails", async () => {
    const failed = ["requested", "quoted", "signed", "submitted", "failed"] as const;
    const text = failed.map((n, i) => sseEvent({ id: i + 1, event: n, data: entry(n) })).join("");
    const r = relay([() => streamed(text), () => Response.json(record([...failed], { status: "failed" }))]);
    const error = await followToFinal(RELAY, "q_1", { fetch: r.fetch }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SwapNotFinalError);
    expect((error as SwapNotFinalError).message).toBe("quote q_1 is failed");
  });
});
