import { describe, expect, it } from "vitest";
import type { QuoteOutcome } from "../../src/auction/quote-outcome";
import { QuoteAdmission } from "../../src/quotes/admission";
import { proofAcceptedUntil } from "../../src/quotes/proof-memory";
import { Limits } from "../../src/schemas/limits";
import { FakeClock } from "../support/fake-clock";

// A fake clock for every admission: a wait for a slot runs only when a test moves it.
const settings = {
  limits: Limits.parse({ maxAuctionsInFlight: 3 }),
  maxOutstandingRfqs: 2,
  rfqWindowMs: 1500,
  clock: new FakeClock(),
};
const done = { kind: "refused", status: 404, code: "no_offers", message: "", extras: {} } as const;

/** An auction that runs until `finish` is called, so places stay held; `started` once admission let it run. */
function heldAuction() {
  let finish: () => void = () => {};
  let started = false;
  const ended = new Promise<void>((r) => {
    finish = r;
  });
  const run = async (): Promise<QuoteOutcome> => {
    started = true;
    await ended;
    return done;
  };
  return { run, finish: () => finish(), started: () => started };
}

/** A proof by 0xT dated `timestamp` (s), as the route hands it over once it verified. */
const proofOf = (signature: string, timestamp = 0) => ({ signer: "0xt", signature, timestamp });
const ask = (client: string, proof?: string) => ({ client, ...(proof ? { proof: proofOf(proof) } : {}) });

describe("QuoteAdmission: a corridor counts quote requests where it runs them", () => {
  it("holds a taker to maxOutstandingRfqs auctions in flight (429 too_many_rfqs) and frees a place as one ends", async () => {
    const admission = new QuoteAdmission(settings);
    const a = heldAuction();
    const b = heldAuction();
    const running = [admission.run("0xT", ask("ip:1"), 0, a.run), admission.run("0xT", ask("ip:2"), 0, b.run)];
    const refused = await admission.run("0xT", ask("ip:3"), 0, async () => done);
    expect(refused).toMatchObject({ status: 429, code: "too_many_rfqs", extras: { retryAfter: 2 } });
    expect(await admission.run("0xOther", ask("ip:3"), 0, async () => done)).toBe(done);
    a.finish();
    await running[0];
    expect(await admission.run("0xT", ask("ip:3"), 0, async () => done)).toBe(done);
    b.finish();
    await running[1];
  });

  it("answers 503 corridor_busy past maxAuctionsInFlight, keeper rounds included, once a window's wait gives no slot", async () => {
    const clock = new FakeClock();
    const admission = new QuoteAdmission({ ...settings, clock });
    const held = [heldAuction(), heldAuction(), heldAuction()];
    const running = held.map((h, i) => admission.run(`0x${i}`, i === 0 ? null : ask(`ip:${i}`), 0, h.run));
    const client = admission.run("0x9", ask("ip:9"), 0, async () => done);
    const keeper = admission.run("0x9", null, 0, async () => done);
    await clock.advance(settings.rfqWindowMs - 1);
    expect(clock.pending).toBe(2);
    await clock.advance(1);
    expect(await client).toMatchObject({ status: 503, code: "corridor_busy", extras: { retryAfter: 2 } });
    expect(await keeper).toMatchObject({ code: "corridor_busy" });
    for (const h of held) h.finish();
    await Promise.all(running);
    expect(await admission.run("0x9", ask("ip:9"), 0, async () => done)).toBe(done);
  });

  it("counts a client over every taker it names, and an API key by its own quota", async () => {
    const admission = new QuoteAdmission(settings);
    const { quoteBurst } = settings.limits;
    for (let i = 0; i < quoteBurst; i++) await admission.run(`0x${i}`, ask("ip:flood"), 0, async () => done);
    expect(await admission.run("0xnew", ask("ip:flood"), 0, async () => done)).toMatchObject({
      status: 429,
      code: "rate_limited",
    });
    expect(await admission.run("0xnew", ask("ip:other"), 0, async () => done)).toBe(done);
    const key = { client: "key:ak_1", quotas: { quoteBurst: 1, quotesPerSecond: 1 } };
    expect(await admission.run("0xa", key, 0, async () => done)).toBe(done);
    expect(await admission.run("0xb", key, 0, async () => done)).toMatchObject({ code: "rate_limited" });
    expect(await admission.run("0xb", key, 1_000, async () => done)).toBe(done);
  });

  it("counts a taker's quote rate over every client asking for it", async () => {
    const admission = new QuoteAdmission({ ...settings, limits: { ...settings.limits, takerQuotesPer10s: 3 } });
    for (let i = 0; i < 3; i++) await admission.run("0xT", ask(`ip:${i}`), 0, async () => done);
    expect(await admission.run("0xT", ask("ip:9"), 0, async () => done)).toMatchObject({
      code: "rate_limited",
      message: expect.stringContaining("taker"),
    });
  });

  it("accepts a taker proof once within its minute; a refused request does not spend it", async () => {
    const admission = new QuoteAdmission({ ...settings, limits: { ...settings.limits, quoteBurst: 1 } });
    expect(await admission.run("0xT", ask("ip:1", "0xproof"), 0, async () => done)).toBe(done);
    expect(await admission.run("0xT", ask("ip:2", "0xproof"), 0, async () => done)).toMatchObject({
      status: 400,
      code: "bad_taker_proof",
    });
    // Over its rate, the client is refused before its proof is looked at: the proof stays usable.
    expect(await admission.run("0xT", ask("ip:1", "0xother"), 0, async () => done)).toMatchObject({
      code: "rate_limited",
    });
    expect(await admission.run("0xT", ask("ip:3", "0xother"), 0, async () => done)).toBe(done);
    expect(await admission.run("0xT", ask("ip:4", "0xproof"), proofAcceptedUntil(0), async () => done)).toBe(done);
  });

  it("remembers a proof dated ahead until its own window closes, not a minute from its first use", async () => {
    const admission = new QuoteAdmission(settings);
    const ahead = { client: "ip:1", proof: proofOf("0xahead", 59) };
    expect(await admission.run("0xT", ahead, 0, async () => done)).toBe(done);
    // A minute after its first use it is still within its window (59 s + 60 s): refused.
    expect(await admission.run("0xT", { ...ahead, client: "ip:2" }, 61_000, async () => done)).toMatchObject({
      code: "bad_taker_proof",
    });
    expect(await admission.run("0xT", { ...ahead, client: "ip:3" }, 118_000, async () => done)).toMatchObject({
      code: "bad_taker_proof",
    });
    expect(await admission.run("0xT", { ...ahead, client: "ip:4" }, proofAcceptedUntil(59), async () => done)).toBe(
      done,
    );
  });

  it("keeps the last free slot for a client holding none: one flood never fills the corridor", async () => {
    const clock = new FakeClock();
    const limits = Limits.parse({ maxAuctionsInFlight: 64, quoteBurst: 1_000 });
    const admission = new QuoteAdmission({ ...settings, limits, clock });
    const held: ReturnType<typeof heldAuction>[] = [];
    /** Each request's refusal, or "running" for one admitted (its auction started as it was asked). */
    const outcomes = async (client: string | null, n: number) => {
      const asked = Array.from({ length: n }, (_, i) => {
        const h = heldAuction();
        held.push(h);
        const outcome = admission.run(`0x${client}${i}`, client === null ? null : ask(client), clock.now(), h.run);
        return h.started() ? "running" : outcome;
      });
      // A request that finds no slot waits one window for one; none is given back here.
      await clock.advance(settings.rfqWindowMs);
      return Promise.all(asked);
    };
    const first = await outcomes("ip:flood", 70);
    expect(first.filter((o) => o === "running")).toHaveLength(63);
    expect(first.filter((o) => o !== "running")).toEqual(
      Array(7).fill(expect.objectContaining({ status: 503, code: "corridor_busy", extras: { retryAfter: 2 } })),
    );
    expect(await outcomes("ip:honest", 2)).toEqual(["running", expect.objectContaining({ code: "corridor_busy" })]);
    expect(await outcomes(null, 1)).toEqual([expect.objectContaining({ code: "corridor_busy" })]);
    for (const h of held) h.finish();
  });

  it("gives a slot that comes free to the waiting client holding the fewest, not the one that asked first", async () => {
    const clock = new FakeClock();
    const limits = Limits.parse({ maxAuctionsInFlight: 64, quoteBurst: 1_000 });
    const admission = new QuoteAdmission({ ...settings, limits, clock });
    const byClient = new Map<string, ReturnType<typeof heldAuction>[]>();
    let n = 0;
    const request = (client: string) => {
      const h = heldAuction();
      byClient.set(client, [...(byClient.get(client) ?? []), h]);
      return { h, outcome: admission.run(`0x${n++}`, ask(client), clock.now(), h.run) };
    };
    // A flood holds 63 of 64; an honest client takes the last.
    for (let i = 0; i < 63; i++) request("ip:flood");
    expect(request("ip:honest").h.started()).toBe(true);
    // The flood asks again, then the honest client: both wait.
    const flood = request("ip:flood");
    const honest = request("ip:honest");
    expect([flood.h.started(), honest.h.started()]).toEqual([false, false]);
    // Two of the flood's auctions end: the one holding 1 is served before the one holding 61, which asked
    // first, and the last free slot is kept.
    for (const h of byClient.get("ip:flood")?.slice(0, 2) ?? []) h.finish();
    await clock.advance(0);
    expect([flood.h.started(), honest.h.started()]).toEqual([false, true]);
    await clock.advance(settings.rfqWindowMs);
    expect(await flood.outcome).toMatchObject({ code: "corridor_busy" });
    for (const hs of byClient.values()) for (const h of hs) h.finish();
  });

  it("gives the place of a full queue's heaviest waiting client to a lighter one", async () => {
    const clock = new FakeClock();
    const limits = Limits.parse({ maxAuctionsInFlight: 4, quoteBurst: 1_000 });
    const admission = new QuoteAdmission({ ...settings, maxOutstandingRfqs: 100, limits, clock });
    const held = Array.from({ length: 4 }, () => heldAuction());
    for (const h of held) admission.run("0xf", ask("ip:flood"), clock.now(), h.run);
    const waiting = Array.from({ length: 4 }, () =>
      admission.run("0xf", ask("ip:flood"), clock.now(), async () => done),
    );
    const ninth = await admission.run("0xf", ask("ip:flood"), clock.now(), async () => done);
    expect(ninth).toMatchObject({ code: "corridor_busy" });
    const light = admission.run("0xl", ask("ip:light"), clock.now(), async () => done);
    // The latest of the flood's places went to the light client at once; a slot that comes free is its.
    expect(await waiting[3]).toMatchObject({ code: "corridor_busy" });
    held[0]?.finish();
    expect(await light).toBe(done);
    await clock.advance(settings.rfqWindowMs);
    expect(await Promise.all(waiting.slice(0, 3))).toEqual(
      Array(3).fill(expect.objectContaining({ code: "corridor_busy" })),
    );
    for (const h of held) h.finish();
  });

  it("serves every quote of a client asking every 400 ms beside eight floods at their rates, each auction its whole window", async () => {
    const clock = new FakeClock();
    const limits = Limits.parse({ maxAuctionsInFlight: 64 });
    const admission = new QuoteAdmission({ ...settings, maxOutstandingRfqs: 100, limits, clock });
    /** A request whose auction, once admitted, lasts `ms`; its answer. */
    const request = (client: string, ms: number) =>
      admission.run(`0x${client}`, ask(client), clock.now(), async () => {
        await clock.sleep(ms);
        return done;
      });
    const honest: Promise<unknown>[] = [];
    const flooded: Promise<unknown>[] = [];
    // Each flood's burst at once, then its rate for 4 s; every auction lasts its whole window, as when a
    // silent node is waited for or the nodes answer late.
    for (let f = 0; f < 8; f++) {
      for (let i = 0; i < limits.quoteBurst; i++) flooded.push(request(`ip:flood${f}`, settings.rfqWindowMs));
    }
    for (let t = 100; t <= 4_000; t += 100) {
      await clock.advance(100);
      for (let f = 0; f < 8; f++) flooded.push(request(`ip:flood${f}`, settings.rfqWindowMs));
      if (t % 400 === 0) honest.push(request("ip:honest", settings.rfqWindowMs));
    }
    // The last asked wait at most one window for a slot and then run one.
    await clock.advance(2 * settings.rfqWindowMs);
    const refused = (await Promise.all(flooded)).filter((o) => o !== done);
    expect(refused.length).toBeGreaterThan(0);
    expect(await Promise.all(honest)).toEqual(Array(10).fill(done));
  });

  it("gives every place back when an auction throws", async () => {
    const admission = new QuoteAdmission(settings);
    for (let i = 0; i < 3; i++) {
      await expect(
        admission.run("0xT", ask(`ip:${i}`), 0, async () => {
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
    }
    expect(await admission.run("0xT", ask("ip:9"), 0, async () => done)).toBe(done);
  });

  it("counts a client's limit-order prepares at its rate, an API key at its own quota", () => {
    const admission = new QuoteAdmission(settings);
    const { prepareBurst } = settings.limits;
    for (let i = 0; i < prepareBurst; i++) expect(admission.prepare(ask("ip:1"), 0)).toBeNull();
    expect(admission.prepare(ask("ip:1"), 0)).toMatchObject({ status: 429, code: "rate_limited" });
    expect(admission.prepare(ask("ip:2"), 0)).toBeNull();
    const key = { client: "key:ak_1", quotas: { prepareBurst: 1, preparesPerSecond: 1 } };
    expect(admission.prepare(key, 0)).toBeNull();
    expect(admission.prepare(key, 0)).toMatchObject({ code: "rate_limited", extras: { retryAfter: 1 } });
    expect(admission.prepare(key, 1_000)).toBeNull();
  });

  it("counts a client's price requests apart from its prepares, at its rate, an API key at its own quota", () => {
    const admission = new QuoteAdmission(settings);
    const { priceBurst } = settings.limits;
    for (let i = 0; i < priceBurst; i++) expect(admission.price(ask("ip:1"), 0)).toBeNull();
    expect(admission.price(ask("ip:1"), 0)).toMatchObject({ status: 429, code: "rate_limited" });
    expect(admission.prepare(ask("ip:1"), 0)).toBeNull();
    expect(admission.price(ask("ip:2"), 0)).toBeNull();
    const key = { client: "key:ak_1", quotas: { priceBurst: 1, pricesPerSecond: 1 } };
    expect(admission.price(key, 0)).toBeNull();
    expect(admission.price(key, 0)).toMatchObject({ code: "rate_limited", extras: { retryAfter: 1 } });
    expect(admission.price(key, 1_000)).toBeNull();
  });
});
