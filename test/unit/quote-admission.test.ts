import { describe, expect, it } from "vitest";
import type { QuoteOutcome } from "../../src/auction/quote-outcome";
import { QuoteAdmission } from "../../src/quotes/admission";
import { proofAcceptedUntil } from "../../src/quotes/proof-memory";
import { Limits } from "../../src/schemas/limits";

const settings = { limits: Limits.parse({ maxAuctionsInFlight: 3 }), maxOutstandingRfqs: 2, rfqWindowMs: 1500 };
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

  it("answers 503 corridor_busy past maxAuctionsInFlight, keeper rounds included, and lets none through", async () => {
    const admission = new QuoteAdmission(settings);
    const held = [heldAuction(), heldAuction(), heldAuction()];
    const running = held.map((h, i) => admission.run(`0x${i}`, i === 0 ? null : ask(`ip:${i}`), 0, h.run));
    expect(await admission.run("0x9", ask("ip:9"), 0, async () => done)).toMatchObject({
      status: 503,
      code: "corridor_busy",
      extras: { retryAfter: 2 },
    });
    expect(await admission.run("0x9", null, 0, async () => done)).toMatchObject({ code: "corridor_busy" });
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

  it("lets a client take an auction slot only while more than twice what it holds are free: one flood never fills the corridor", async () => {
    const limits = Limits.parse({ maxAuctionsInFlight: 64, quoteBurst: 1_000 });
    const admission = new QuoteAdmission({ ...settings, limits });
    const held: ReturnType<typeof heldAuction>[] = [];
    /** Each request's refusal, or "running" for one admitted (its auction started as it was asked). */
    const outcomes = (client: string | null, n: number) =>
      Array.from({ length: n }, (_, i) => {
        const h = heldAuction();
        held.push(h);
        const outcome = admission.run(`0x${client}${i}`, client === null ? null : ask(client), 0, h.run);
        return h.started() ? "running" : outcome;
      });
    // One client's burst of 40: it holds 22, a third of the slots, and is refused the rest.
    const first = await Promise.all(outcomes("ip:flood1", 40));
    expect(first.filter((o) => o === "running")).toHaveLength(22);
    expect(first.filter((o) => o !== "running")).toEqual(
      Array(18).fill(expect.objectContaining({ status: 503, code: "corridor_busy", extras: { retryAfter: 2 } })),
    );
    // Seven more floods one after another: each gets a third of what is free, and the last free slots are
    // left to clients that hold none.
    const shares = [];
    for (let f = 2; f <= 8; f++) {
      shares.push((await Promise.all(outcomes(`ip:flood${f}`, 40))).filter((o) => o === "running").length);
    }
    expect(shares).toEqual([14, 10, 6, 4, 3, 2, 1]);
    expect(await Promise.all(outcomes("ip:honest", 2))).toEqual([
      "running",
      expect.objectContaining({ code: "corridor_busy" }),
    ]);
    expect(await Promise.all(outcomes(null, 2))).toEqual([
      "running",
      expect.objectContaining({ code: "corridor_busy" }),
    ]);
    for (const h of held) h.finish();
  });

  it("shares the slots among clients asking at once: eight floods leave 12 of 64 for everyone else", async () => {
    const admission = new QuoteAdmission({ ...settings, limits: Limits.parse({ maxAuctionsInFlight: 64 }) });
    const held: ReturnType<typeof heldAuction>[] = [];
    let running = 0;
    for (let round = 0; round < 20; round++) {
      for (let f = 0; f < 8; f++) {
        const h = heldAuction();
        const outcome = admission.run(`0x${f}-${round}`, ask(`ip:flood${f}`), 0, h.run);
        if (!h.started()) {
          await outcome;
          continue;
        }
        held.push(h);
        running += 1;
      }
    }
    // 6 each (48), then a seventh for four of them while more than 12 were free: 52, and 12 free for others.
    expect(running).toBe(52);
    expect(await admission.run("0xhonest", ask("ip:honest"), 0, async () => done)).toBe(done);
    expect(await admission.run("0xk", null, 0, async () => done)).toBe(done);
    for (const h of held) h.finish();
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
