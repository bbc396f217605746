import { describe, expect, it } from "vitest";
import { pollSource, pollSources, rateSources } from "../../src/oracle/poll";
import { recorded, republish } from "../support/oracle-fixtures";

const [quidax, luno] = rateSources(
  [
    { name: "quidax", adapter: "quidax", url: "https://source.test/quidax", base: "USD", quote: "NGN" },
    { name: "luno", adapter: "luno", url: "https://source.test/luno", base: "USD", quote: "NGN", maxAgeSeconds: 30 },
  ],
  60,
) as [ReturnType<typeof rateSources>[number], ReturnType<typeof rateSources>[number]];

const answer =
  (body: BodyInit, init: ResponseInit = {}): typeof fetch =>
  async () =>
    new Response(body, init);

/** A source that never answers: the request only ends when its signal aborts it. */
const hang: typeof fetch = (_input, init) =>
  new Promise((_resolve, reject) => {
    init?.signal?.addEventListener("abort", () => reject(init.signal?.reason));
  });

describe("rateSources", () => {
  it("takes the oracle-wide age limit unless the source sets its own", () => {
    expect(quidax.maxAgeMs).toBe(60_000);
    expect(luno.maxAgeMs).toBe(30_000);
    expect(quidax.pair).toStrictEqual({ base: "USD", quote: "NGN" });
  });

  it("holds a daily reference rate's format to two days, whatever the configuration leaves out", () => {
    const daily = rateSources(
      [
        { name: "er", adapter: "open-er-api", url: "https://source.test/er", base: "USD", quote: "NGN" },
        { name: "cdn", adapter: "currency-api", url: "https://source.test/cdn", base: "USD", quote: "NGN" },
        {
          name: "er-strict",
          adapter: "open-er-api",
          url: "https://source.test/er",
          base: "USD",
          quote: "NGN",
          maxAgeSeconds: 3_600,
        },
      ],
      60,
    );
    expect(daily.map((s) => s.maxAgeMs)).toEqual([172_800_000, 172_800_000, 3_600_000]);
  });
});

describe("pollSource", () => {
  it("reads a good answer with the source's adapter, and when it was received", async () => {
    const body = JSON.stringify(republish("quidax", Date.UTC(2025, 10, 21)));
    const before = Date.now();
    const outcome = await pollSource(quidax, 1_000, answer(body));
    expect(outcome).toStrictEqual({
      name: "quidax",
      ok: true,
      reading: { bid: 1452.1, ask: 1455.9, value: 1454, at: Date.UTC(2025, 10, 21) },
      receivedAt: expect.any(Number),
    });
    const receivedAt = outcome.ok ? outcome.receivedAt : 0;
    expect(receivedAt).toBeGreaterThanOrEqual(before);
    expect(receivedAt).toBeLessThanOrEqual(Date.now());
  });

  it("names the status of a non-2xx answer", async () => {
    expect(await pollSource(quidax, 1_000, answer("oops", { status: 503 }))).toStrictEqual({
      name: "quidax",
      ok: false,
      reason: "HTTP 503",
    });
  });

  it("refuses a body that is not JSON", async () => {
    expect(await pollSource(quidax, 1_000, answer("<html>challenge</html>"))).toMatchObject({
      ok: false,
      reason: "malformed: not JSON",
    });
  });

  it("passes on the adapter's refusal of a JSON body of the wrong shape", async () => {
    expect(await pollSource(quidax, 1_000, answer(JSON.stringify(recorded.luno)))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^malformed: data/),
    });
  });

  it("gives up on a source that does not answer in time", async () => {
    const started = Date.now();
    expect(await pollSource(luno, 50, hang)).toStrictEqual({
      name: "luno",
      ok: false,
      reason: "no answer within 50 ms",
    });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("reports a network failure", async () => {
    const refuse: typeof fetch = async () => {
      throw new TypeError("connection refused");
    };
    expect(await pollSource(quidax, 1_000, refuse)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^fetch failed/),
    });
  });
});

describe("pollSources", () => {
  it("asks every source at once, so one slow source costs one timeout, not one per source", async () => {
    const started = Date.now();
    const outcomes = await pollSources([luno, luno, luno], 200, hang);
    expect(outcomes.every((o) => !o.ok)).toBe(true);
    expect(Date.now() - started).toBeLessThan(550);
  });
});
