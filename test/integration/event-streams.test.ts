import { env } from "cloudflare:test";
import { privateKeyToAccount } from "viem/accounts";
import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { allCorridors, corridorTag } from "../../src/chains/corridor-keys";
import { loadConfig } from "../../src/config/load";
import { cancelLimitOrder, startLimitFill } from "../../src/db/limit-moves";
import { insertLimitOrder } from "../../src/db/limit-orders";
import { timelineStatement } from "../../src/db/quote-writes";
import { newId } from "../../src/ids";
import { cancelQuoteMessage } from "../../src/quotes/messages";
import { STREAM_LIMITS } from "../../src/streams/hub";

const { streamsPerClient: PER_CLIENT, streamsPerCorridor: PER_CORRIDOR } = loadConfig(undefined).limits;

import { sampleLimitOrder } from "../support/limit-records";
import { seedQuote } from "../support/records";
import { SseClient } from "../support/sse-client";

/**
 * Event streams of quotes and limit orders (docs/api.md, "Event streams"), through the Worker to the
 * corridor object that hosts them, over real D1: history, live events, resume, end, errors and limits.
 */

const app = createApp();
const corridorKey = allCorridors(loadConfig(env.RELAY_CONFIG))[0]?.key ?? "";
const corridor = () => env.CORRIDOR.get(env.CORRIDOR.idFromName(corridorKey));
const taker = privateKeyToAccount("0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbac7f7fa5c");
const open: SseClient[] = [];

async function stream(path: string, headers: Record<string, string> = {}) {
  const res = await app.request(path, { headers }, env);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
  const client = new SseClient(res.body);
  open.push(client);
  return client;
}

const seed = (overrides: Parameters<typeof seedQuote>[1] = {}) =>
  seedQuote(env.DB, { quoteId: newId("q", corridorTag(corridorKey)), ...overrides });

/** A settlement step as the keeper writes it: the status and the timeline entry. */
async function step(quoteId: string, status: string, event: "signed" | "submitted" | "settled" | "final") {
  const at = new Date().toISOString();
  await env.DB.batch([
    env.DB.prepare("UPDATE quotes SET status = ?2, updated_at = ?3 WHERE quote_id = ?1").bind(quoteId, status, at),
    timelineStatement(env.DB, quoteId, { at, event, detail: event === "submitted" ? { txHash: "0xabc" } : null }),
  ]);
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close().catch(() => {})));
});

describe("a quote's event stream", () => {
  it("replays the timeline, delivers each step within a second of its announcement, and ends at final", async () => {
    const { quote } = await seed();
    const s = await stream(`/v1/quotes/${quote.quoteId}/events`);
    const history = await s.until("quoted");
    expect(history.map((e) => [e.id, e.event])).toEqual([
      ["1", "requested"],
      ["2", "quoted"],
    ]);
    expect(history[1]?.data).toMatchObject({ event: "quoted", detail: { latencyMs: 80 } });
    expect(s.text.startsWith(`retry: ${STREAM_LIMITS.retryMs}\n\n`)).toBe(true);

    await step(quote.quoteId, "submitted", "signed");
    await step(quote.quoteId, "submitted", "submitted");
    const announced = Date.now();
    await corridor().quotesChanged([{ quoteId: quote.quoteId }]);
    const live = await s.until("submitted", 1_000);
    expect(Date.now() - announced).toBeLessThan(1_000);
    expect(live.map((e) => [e.id, e.event])).toEqual([
      ["3", "signed"],
      ["4", "submitted"],
    ]);
    expect(live[1]?.data).toMatchObject({ detail: { txHash: "0xabc" } });

    await step(quote.quoteId, "settled", "settled");
    await step(quote.quoteId, "settled", "final");
    await corridor().quotesChanged([{ quoteId: quote.quoteId }]);
    const last = await s.end(1_000);
    expect(last.map((e) => e.event)).toEqual(["settled", "final"]);

    // An EventSource reconnects after the end with the last id: 204 tells it there is nothing more.
    const after = await app.request(`/v1/quotes/${quote.quoteId}/events`, { headers: { "Last-Event-ID": "6" } }, env);
    expect(after.status).toBe(204);
    // Without an id it gets the whole history again.
    const again = await stream(`/v1/quotes/${quote.quoteId}/events`);
    expect((await again.end(1_000)).map((e) => e.id)).toEqual(["1", "2", "3", "4", "5", "6"]);
  });

  it("resumes after Last-Event-ID with only what followed", async () => {
    const { quote } = await seed();
    await step(quote.quoteId, "signed", "signed");
    const s = await stream(`/v1/quotes/${quote.quoteId}/events`, { "Last-Event-ID": "2" });
    expect((await s.take(100)).map((e) => [e.id, e.event])).toEqual([["3", "signed"]]);
  });

  it("catches a change nobody announced at its next read", async () => {
    const { quote } = await seed();
    const s = await stream(`/v1/quotes/${quote.quoteId}/events`);
    await s.until("quoted");
    await step(quote.quoteId, "signed", "signed");
    const events = await s.until("signed", STREAM_LIMITS.rereadMs + 3_000);
    expect(events.map((e) => e.event)).toEqual(["signed"]);
  }, 15_000);

  it("sees the quote expire when it is due and ends", async () => {
    const { quote } = await seed({ expiresAt: new Date(Date.now() + 1_500).toISOString() });
    const s = await stream(`/v1/quotes/${quote.quoteId}/events`);
    await s.until("quoted");
    const events = await s.end(4_000);
    expect(events.map((e) => [e.id, e.event])).toEqual([["3", "expired"]]);
  }, 10_000);

  it("ends a cancelled quote's stream with a cancelled event when the taker cancels", async () => {
    const { quote } = await seed({ taker: taker.address });
    const s = await stream(`/v1/quotes/${quote.quoteId}/events`);
    await s.until("quoted");
    const signature = await taker.signMessage({ message: cancelQuoteMessage(quote.chainId, quote.quoteId) });
    const cancelled = await app.request(
      `/v1/quotes/${quote.quoteId}/cancel`,
      { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ signature }) },
      env,
    );
    expect(cancelled.status).toBe(200);
    const events = await s.end(1_000);
    expect(events).toEqual([{ id: "3", event: "cancelled", data: { at: expect.any(String), status: "cancelled" } }]);
  });

  it("answers 404 not_found for an unknown or malformed id, 400 for a Last-Event-ID it never gave", async () => {
    for (const id of [newId("q", corridorTag(corridorKey)), newId("q"), "nope"]) {
      const res = await app.request(`/v1/quotes/${id}/events`, {}, env);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: string }).error).toBe("not_found");
    }
    const { quote } = await seed();
    const bad = await app.request(`/v1/quotes/${quote.quoteId}/events`, { headers: { "Last-Event-ID": "x1" } }, env);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toBe("invalid_request");
  });

  it(`holds at most ${PER_CLIENT} open streams per client per corridor, an IPv6 /64 being one client`, async () => {
    const { quote } = await seed();
    const path = `/v1/quotes/${quote.quoteId}/events`;
    for (let i = 0; i < PER_CLIENT; i++) await stream(path, { "CF-Connecting-IP": "192.0.2.7" });
    const refused = await app.request(path, { headers: { "CF-Connecting-IP": "192.0.2.7" } }, env);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toBe("10");
    expect(((await refused.json()) as { error: string }).error).toBe("rate_limited");
    await stream(path, { "CF-Connecting-IP": "192.0.2.8" });
    // One subscriber's IPv6 range is one client, whatever address of its /64 it connects from.
    for (let i = 0; i < PER_CLIENT; i++) await stream(path, { "CF-Connecting-IP": `2001:db8:1:2::${i + 1}` });
    const sameRange = await app.request(path, { headers: { "CF-Connecting-IP": "2001:db8:1:2:a:b:c:d" } }, env);
    expect(sameRange.status).toBe(429);
    await stream(path, { "CF-Connecting-IP": "2001:db8:1:3::1" });
    // A closed stream frees its place.
    await open[0]?.close();
    await new Promise((r) => setTimeout(r, 50));
    await stream(path, { "CF-Connecting-IP": "192.0.2.7" });
  });

  it(`holds at most ${PER_CORRIDOR} streams for all clients, the last quarter for clients that hold none`, async () => {
    const { quote } = await seed();
    const path = `/v1/quotes/${quote.quoteId}/events`;
    const clients = Math.ceil(PER_CORRIDOR / PER_CLIENT); // 50 /64s, each at its own limit, would take them all
    const refusals: Response[] = [];
    for (let c = 0; c < clients; c++) {
      const headers = { "CF-Connecting-IP": `2001:db8:${c + 1}::1` };
      const answers = await Promise.all(Array.from({ length: PER_CLIENT }, () => app.request(path, { headers }, env)));
      for (const res of answers) {
        if (res.status === 200) open.push(new SseClient(res.body));
        else refusals.push(res);
      }
    }
    const held = open.length;
    // The shared three quarters go to clients at their own limit; each client after that gets one.
    expect(held).toBeLessThan(PER_CORRIDOR);
    expect(refusals.map((r) => [r.status, r.headers.get("Retry-After")])).toEqual(refusals.map(() => [503, "10"]));
    expect(refusals.length).toBeGreaterThan(0);
    expect(await refusals[0]?.json()).toMatchObject({ error: "corridor_busy" });
    // A newcomer still gets a stream.
    await stream(path, { "CF-Connecting-IP": "2001:db8:ffff::1" });
    // Up to the cap, then no one does: 503 corridor_busy, not a client's 429.
    for (let c = 0; open.length < PER_CORRIDOR; c++) await stream(path, { "CF-Connecting-IP": `198.51.100.${c}` });
    const full = await app.request(path, { headers: { "CF-Connecting-IP": "203.0.113.1" } }, env);
    expect(full.status).toBe(503);
    console.log(`streams: ${held} held by ${clients} clients at their own limit; the cap ${PER_CORRIDOR}`);
  });
});

describe("a limit order's event stream", () => {
  it("answers 404 for an order of a corridor the relay no longer serves, not 500", async () => {
    const order = sampleLimitOrder({ corridor: `999:0x${"a".repeat(40)}:0x${"b".repeat(40)}` });
    expect(await insertLimitOrder(env.DB, order, 100, new Date().toISOString())).toBe("placed");
    const res = await app.request(`/v1/limit-orders/${order.limitOrderId}/events`, {}, env);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: "not_found" });
  });

  it("replays its statuses, follows its moves, and ends when it is cancelled", async () => {
    const order = sampleLimitOrder({ corridor: corridorKey });
    expect(await insertLimitOrder(env.DB, order, 100, new Date().toISOString())).toBe("placed");
    const s = await stream(`/v1/limit-orders/${order.limitOrderId}/events`);
    const [placed] = await s.until("open");
    expect(placed).toMatchObject({ id: "1", event: "open", data: { status: "open", attempts: 0, quoteId: null } });

    const quoteId = newId("q", corridorTag(corridorKey));
    await startLimitFill(env.DB, { limitOrderId: order.limitOrderId, quoteId, now: new Date().toISOString() });
    await corridor().limitOrderChanged(order.limitOrderId);
    const [filling] = await s.until("filling", 1_000);
    expect(filling).toMatchObject({ id: "2", data: { status: "filling", quoteId } });

    await env.DB.prepare("UPDATE limit_orders SET status = 'open', updated_at = ? WHERE limit_order_id = ?")
      .bind(new Date().toISOString(), order.limitOrderId)
      .run();
    expect(await cancelLimitOrder(env.DB, order.limitOrderId, new Date().toISOString())).toBe(true);
    await corridor().limitOrderChanged(order.limitOrderId);
    const rest = await s.end(1_000);
    expect(rest.map((e) => [e.id, e.event])).toEqual([
      ["3", "open"],
      ["4", "cancelled"],
    ]);
  });

  it("answers 404 not_found for an unknown order", async () => {
    const res = await app.request(`/v1/limit-orders/${newId("lo")}/events`, {}, env);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: string }).error).toBe("not_found");
  });
});
