import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { localConfig } from "../../src/config/local";
import { cancelQuote } from "../../src/db/quote-status";
import { readQuoteProgress, readQuoteRecord } from "../../src/db/quotes";
import { readResolver, upsertRegistration } from "../../src/db/resolvers";
import type { SubmitRequest } from "../../src/keeper/rpc";
import { cutShortAtBroadcast, keeperHarness } from "../support/fake-keeper-port";
import { FakeSettler } from "../support/fake-settler";
import { freshResolver, sampleQuote, seedQuote } from "../support/records";

/**
 * The keeper's admission and wallet through their ports (docs/settlement.md, "Answers, in the order they
 * are checked"): a real local D1, an in-memory chain (test/support/fake-settler.ts). No anvil, no waiting.
 */
const SIGNATURE = `0x${"11".repeat(65)}`;
const request = (quoteId: string, over: Partial<SubmitRequest> = {}): SubmitRequest => ({
  quoteId,
  takerPart: { signature: SIGNATURE },
  permit: null,
  idempotencyKey: null,
  ...over,
});
const record = async (quoteId: string) => {
  const r = await readQuoteRecord(env.DB, quoteId);
  if (!r) throw new Error(`no quote ${quoteId}`);
  return r;
};
const events = async (quoteId: string) => (await record(quoteId)).timeline.map((t) => t.event);

describe("keeper admission: refusals, in order", () => {
  it("answers 404 quote_not_found for an unknown quote", async () => {
    const { keeper } = keeperHarness(env.DB);
    expect(await keeper.submit(request("q_unknown"))).toMatchObject({ status: 404, code: "quote_not_found" });
  });

  it("has the quote's corridor write it through when D1 does not have it yet, then admits it", async () => {
    const asked: string[] = [];
    let pending: Awaited<ReturnType<typeof seedQuote>> | null = null;
    const quoteId = sampleQuote().quoteId;
    const { keeper } = keeperHarness(env.DB, {
      writeThrough: async (id) => {
        asked.push(id);
        pending = await seedQuote(env.DB, { quoteId: id });
        return true;
      },
    });
    expect(await keeper.submit(request(quoteId))).toMatchObject({ kind: "submitted", quoteId });
    expect(asked).toEqual([quoteId]);
    expect(pending).not.toBeNull();
  });

  it("answers 409 wrong_chain when the taker names another chain, and 400 without the chain's field", async () => {
    const { keeper } = keeperHarness(env.DB);
    const { quote } = await seedQuote(env.DB);
    expect(await keeper.submit(request(quote.quoteId, { chainId: quote.chainId + 1 }))).toMatchObject({
      status: 409,
      code: "wrong_chain",
    });
    // An EVM quote's taker part is its `signature`: a `transaction` is not it.
    expect(await keeper.submit(request(quote.quoteId, { takerPart: { transaction: "AQID" } }))).toMatchObject({
      status: 400,
      code: "invalid_request",
      extras: { issues: [{ path: "signature" }] },
    });
    expect(await readQuoteRecord(env.DB, quote.quoteId)).toMatchObject({ status: "quoted" });
    expect(await keeper.submit(request(quote.quoteId, { chainId: quote.chainId }))).toMatchObject({
      kind: "submitted",
    });
  });

  it.each(["cancelled", "settled", "failed"] as const)("answers 409 quote_not_open for a %s quote", async (status) => {
    const { keeper } = keeperHarness(env.DB);
    const { quote } = await seedQuote(env.DB, { status });
    expect(await keeper.submit(request(quote.quoteId))).toMatchObject({
      status: 409,
      code: "quote_not_open",
      extras: { status },
    });
  });

  it("answers 409 quote_not_open, submitted, while a fill of the quote is on its way", async () => {
    const h = keeperHarness(env.DB);
    const { quote } = await seedQuote(env.DB);
    // Signed and kept, not broadcast yet: D1 still says the quote is open.
    expect(await cutShortAtBroadcast(h, request(quote.quoteId))).toMatchObject({ state: "signed" });
    // Claimed for the fill, but `signed` is written only with the broadcast.
    expect((await record(quote.quoteId)).status).toBe("quoted");
    const restarted = keeperHarness(env.DB, { settler: h.settler, store: h.store });
    const again = await restarted.keeper.submit(request(quote.quoteId));
    expect(again).toMatchObject({ status: 409, code: "quote_not_open", extras: { status: "submitted" } });
  });

  it("answers 409 quote_expired past expiresAt and records the expiry", async () => {
    const { keeper } = keeperHarness(env.DB);
    const past = Date.now() - 1_000;
    const { quote } = await seedQuote(env.DB, {
      quotedAt: new Date(past - 30_000).toISOString(),
      expiresAt: new Date(past).toISOString(),
    });
    expect(await keeper.submit(request(quote.quoteId))).toMatchObject({ status: 409, code: "quote_expired" });
    expect((await record(quote.quoteId)).status).toBe("expired");
    expect(await events(quote.quoteId)).toEqual(["requested", "quoted", "expired"]);
  });

  it("answers 409 wrong_chain for a chain the relay no longer serves", async () => {
    const { keeper } = keeperHarness(env.DB);
    const { quote } = await seedQuote(env.DB, { chainId: 1 });
    expect(await keeper.submit(request(quote.quoteId))).toMatchObject({ status: 409, code: "wrong_chain" });
  });

  it("answers 503 not_leader keeper_not_configured without a key, before the signature, changing nothing", async () => {
    const { keeper } = keeperHarness(env.DB, { noKey: true });
    const { quote } = await seedQuote(env.DB);
    expect(await keeper.submit(request(quote.quoteId))).toMatchObject({
      status: 503,
      code: "not_leader",
      extras: { reason: "keeper_not_configured", retryAfter: 2 },
    });
    expect((await record(quote.quoteId)).status).toBe("quoted");
  });

  it("answers 400 bad_signature when the signature is not the taker's, and leaves the quote quoted", async () => {
    const h = keeperHarness(env.DB);
    h.settler.signatureValid = false;
    const { quote } = await seedQuote(env.DB);
    expect(await h.keeper.submit(request(quote.quoteId))).toMatchObject({ status: 400, code: "bad_signature" });
    expect((await record(quote.quoteId)).status).toBe("quoted");
  });

  it("answers 400 bad_signature when the contracts refuse the signature, the quote unchanged", async () => {
    const h = keeperHarness(env.DB);
    h.settler.preparation = { kind: "bad_signature" };
    const { quote } = await seedQuote(env.DB);
    expect(await h.keeper.submit(request(quote.quoteId))).toMatchObject({ status: 400, code: "bad_signature" });
    expect(await events(quote.quoteId)).toEqual(["requested", "quoted"]);
    expect((await record(quote.quoteId)).status).toBe("quoted");
  });

  it("answers 400 taker_not_ready with the chain's reason and detail", async () => {
    const h = keeperHarness(env.DB);
    h.settler.readinessAnswer = { ready: false, reason: "permit2_not_approved", detail: "approve Permit2" };
    const { quote } = await seedQuote(env.DB);
    expect(await h.keeper.submit(request(quote.quoteId))).toMatchObject({
      status: 400,
      code: "taker_not_ready",
      extras: { reason: "permit2_not_approved", detail: "approve Permit2" },
    });
    const after = await record(quote.quoteId);
    expect(after.status).toBe("quoted");
    expect(after.timeline.map((t) => t.event)).toEqual(["requested", "quoted"]);
    expect(after.executions).toEqual([]);
  });

  it("answers 503 not_leader rpc_unavailable when the chain does not answer, recording nothing", async () => {
    const h = keeperHarness(env.DB);
    h.settler.down = true;
    const { quote } = await seedQuote(env.DB);
    expect(await h.keeper.submit(request(quote.quoteId))).toMatchObject({
      status: 503,
      code: "not_leader",
      extras: { reason: "rpc_unavailable" },
    });
    expect((await record(quote.quoteId)).executions).toEqual([]);
    expect(await events(quote.quoteId)).toEqual(["requested", "quoted"]);
    expect(h.store.count()).toBe(0);
  });

  it("answers 503 not_leader keeper_not_allowed when the contract refuses the keeper, the quote unchanged", async () => {
    const h = keeperHarness(env.DB);
    h.settler.preparation = { kind: "keeper_refused", reason: "keeper_not_allowed" };
    const { quote } = await seedQuote(env.DB);
    expect(await h.keeper.submit(request(quote.quoteId))).toMatchObject({
      status: 503,
      code: "not_leader",
      extras: { reason: "keeper_not_allowed" },
    });
    expect((await record(quote.quoteId)).status).toBe("quoted");
  });

  it("answers 503 not_leader recovering while a broadcast on the chain is unconfirmed", async () => {
    const h = keeperHarness(env.DB);
    const first = await seedQuote(env.DB);
    const second = await seedQuote(env.DB);
    h.settler.broadcastAnswers.push({ status: "unreachable", reason: "timeout" });
    expect(await h.keeper.submit(request(first.quote.quoteId))).toMatchObject({ kind: "submitted" });
    expect(await h.keeper.submit(request(second.quote.quoteId))).toMatchObject({
      status: 503,
      code: "not_leader",
      extras: { reason: "recovering", retryAfter: 2 },
    });
    expect((await record(second.quote.quoteId)).status).toBe("quoted");
  });
});

describe("keeper admission: requotes", () => {
  it("keeps the quote open on a taker: requote, and tells no resolver", async () => {
    const h = keeperHarness(env.DB);
    h.settler.preparation = { kind: "requote", reason: "taker:insufficient_balance" };
    const { quote } = await seedQuote(env.DB);
    const outcome = await h.keeper.submit(request(quote.quoteId));
    expect(outcome).toMatchObject({ kind: "requote", reason: "taker:insufficient_balance" });
    const after = await record(quote.quoteId);
    expect(after.status).toBe("signed");
    expect(after.executions).toMatchObject([{ status: "requote", reason: "taker:insufficient_balance" }]);
    expect(after.timeline.at(-1)).toMatchObject({ event: "requote", detail: { reason: "taker:insufficient_balance" } });
    // The taker's streams hear of the requote; no resolver does.
    expect(h.grown).toEqual([quote.quoteId]);
    expect(h.notified).toEqual([]);
    expect(h.demotions).toEqual([]);
  });

  it("fails the quote on any other requote, tells the winning resolver, and strikes it", async () => {
    const h = keeperHarness(env.DB);
    h.settler.preparation = { kind: "requote", reason: "resolver:insufficient_balance" };
    // A resolver of its own: earlier tests' fills of one still in flight would explain its shortfall as the
    // relay's (src/keeper/spent-by-relay.ts).
    const { quote } = await seedQuote(env.DB, { resolver: freshResolver() });
    const resolver = quote.resolver?.address ?? "";
    await upsertRegistration(env.DB, resolver, { name: "alpha" }, new Date().toISOString());
    const started = Date.now();
    const outcome = await h.keeper.submit(request(quote.quoteId));
    expect(outcome).toMatchObject({ kind: "requote", reason: "resolver:insufficient_balance" });
    expect((await record(quote.quoteId)).status).toBe("failed");
    expect(await events(quote.quoteId)).toEqual(["requested", "quoted", "signed", "requote", "failed"]);
    expect(h.notified).toMatchObject([
      { resolver, update: { quoteId: quote.quoteId, status: "failed", txHash: null } },
    ]);
    const reason = "strike 1: requote resolver:insufficient_balance; demoted for 15 min";
    expect(h.demotions).toMatchObject([{ resolver, demotion: { reason } }]);
    const row = await readResolver(env.DB, resolver);
    expect(row).toMatchObject({ demotionReason: reason, demotions: 1 });
    const until = Date.parse(row?.demotedUntil ?? "");
    expect(until - started).toBeGreaterThanOrEqual(15 * 60_000);
    expect(until - Date.now()).toBeLessThanOrEqual(15 * 60_000);
  });
});

describe("keeper admission: blame", () => {
  it.each(["relay:fee_mismatch", "relay:reverted", "taker:nonce_used"])(
    "strikes nobody on a %s requote, whoever won",
    async (reason) => {
      const h = keeperHarness(env.DB);
      h.settler.preparation = { kind: "requote", reason };
      const { quote } = await seedQuote(env.DB);
      const resolver = quote.resolver?.address ?? "";
      await upsertRegistration(env.DB, resolver, { name: "alpha" }, new Date().toISOString());
      const before = await readResolver(env.DB, resolver);
      expect(await h.keeper.submit(request(quote.quoteId))).toMatchObject({ kind: "requote", reason });
      expect(h.demotions).toEqual([]);
      expect((await readResolver(env.DB, resolver))?.demotions).toBe(before?.demotions);
      const after = await record(quote.quoteId);
      const blame = reason.slice(0, reason.indexOf(":"));
      expect(after.executions).toMatchObject([{ status: "requote", reason, blame }]);
      // Only the taker can fix its own reason: the quote stays open for it, and fails otherwise.
      expect(after.status).toBe(blame === "taker" ? "signed" : "failed");
      // The relay's own fault is told to the corridor, which shows itself degraded with the reason.
      expect(h.notified.map((n) => n.fault ?? null)).toEqual(blame === "relay" ? [reason] : []);
    },
  );
});

describe("keeper wallet: broadcasting", () => {
  it("signs, keeps and broadcasts a fill: 202 submitted, D1 submitted, the resolver told", async () => {
    const h = keeperHarness(env.DB);
    const { quote } = await seedQuote(env.DB);
    const outcome = await h.keeper.submit(request(quote.quoteId));
    expect(outcome).toMatchObject({ kind: "submitted", quoteId: quote.quoteId });
    const txHash = outcome.kind === "submitted" ? outcome.txHash : "";
    expect(h.settler.sent).toEqual([txHash]);
    expect(h.store.get(txHash)?.state).toBe("sent");
    expect(h.indexerArmed()).toBe(1);
    const after = await record(quote.quoteId);
    expect(after.status).toBe("submitted");
    expect(after.executions).toMatchObject([{ status: "submitted", txHash, submitter: h.settler.keeper }]);
    expect(h.notified).toMatchObject([{ update: { status: "submitted", txHash } }]);
  });

  it("answers 503 broadcast_failed when the network refuses: nothing recorded, the nonce freed", async () => {
    const settler = new FakeSettler();
    const h = keeperHarness(env.DB, { settler });
    const { quote } = await seedQuote(env.DB);
    settler.broadcastAnswers.push({ status: "refused", reason: "underpriced" });
    expect(await h.keeper.submit(request(quote.quoteId))).toMatchObject({
      status: 503,
      code: "broadcast_failed",
      extras: { reason: "underpriced" },
    });
    expect(settler.released).toEqual([0]);
    expect(h.store.count()).toBe(0);
    const after = await record(quote.quoteId);
    expect(after.status).toBe("quoted");
    expect(after.timeline.map((t) => t.event)).toEqual(["requested", "quoted"]);
    expect(after.executions).toEqual([]);
    // The same nonce is used again.
    const retry = await h.keeper.submit(request(quote.quoteId));
    expect(retry).toMatchObject({ kind: "submitted", txHash: `0x${"0".repeat(64)}` });
  });

  it("answers 503 not_leader keeper_insufficient_funds when the keeper cannot pay: the quote stays open", async () => {
    const settler = new FakeSettler();
    const h = keeperHarness(env.DB, { settler });
    const { quote } = await seedQuote(env.DB);
    settler.broadcastAnswers.push({ status: "refused", reason: "insufficient_funds" });
    expect(await h.keeper.submit(request(quote.quoteId))).toMatchObject({
      status: 503,
      code: "not_leader",
      extras: { reason: "keeper_insufficient_funds", retryAfter: 2 },
    });
    const after = await record(quote.quoteId);
    expect(after.status).toBe("quoted");
    expect(after.executions).toEqual([]);
  });

  it("answers a repeated Idempotency-Key with the first execution, as it stands", async () => {
    const h = keeperHarness(env.DB);
    const { quote } = await seedQuote(env.DB);
    const first = await h.keeper.submit(request(quote.quoteId, { idempotencyKey: "k-1" }));
    expect(first).toMatchObject({ kind: "submitted" });
    const again = await h.keeper.submit(request(quote.quoteId, { idempotencyKey: "k-1" }));
    expect(again).toEqual({
      kind: "duplicate",
      quoteId: quote.quoteId,
      executionId: first.kind === "submitted" ? first.executionId : "",
      status: "submitted",
      txHash: first.kind === "submitted" ? first.txHash : "",
      reason: null,
    });
    expect(h.settler.sent).toHaveLength(1);
  });

  it("while paused, still answers a repeat and an unknown quote, and refuses a new submission before the chain", async () => {
    const h = keeperHarness(env.DB);
    const [{ quote: sent }, { quote: fresh }] = [await seedQuote(env.DB), await seedQuote(env.DB)];
    const first = await h.keeper.submit(request(sent.quoteId, { idempotencyKey: "k-2" }));
    expect(first).toMatchObject({ kind: "submitted" });
    // The leader hands each submission over with its pause (src/keeper/leader.ts).
    const paused = (req: SubmitRequest) => ({ ...req, paused: true });
    expect(await h.keeper.submit(paused(request(sent.quoteId, { idempotencyKey: "k-2" })))).toMatchObject({
      kind: "duplicate",
    });
    expect(await h.keeper.submit(paused(request("q_nothing")))).toMatchObject({ status: 404, code: "quote_not_found" });
    expect(await h.keeper.submit(paused(request(fresh.quoteId)))).toMatchObject({
      status: 503,
      code: "not_leader",
      extras: { reason: "keeper_paused" },
    });
    expect(h.settler.sent).toHaveLength(1);
    expect(await record(fresh.quoteId)).toMatchObject({ status: "quoted" });
  });
});

describe("cancel and submit of one quote", () => {
  const cancel = (quoteId: string) => cancelQuote(env.DB, quoteId, new Date().toISOString());

  it("refuses the cancel once the keeper has claimed the quote for a fill", async () => {
    const h = keeperHarness(env.DB);
    const { quote } = await seedQuote(env.DB);
    await cutShortAtBroadcast(h, request(quote.quoteId));
    expect(await cancel(quote.quoteId)).toBe(false);
    expect((await record(quote.quoteId)).status).toBe("quoted");
  });

  it("broadcasts nothing once the cancel is recorded", async () => {
    const h = keeperHarness(env.DB);
    const { quote } = await seedQuote(env.DB);
    // The taker cancels while the keeper checks its signature, after its reads and before its claim.
    h.settler.duringVerify = async () => {
      expect(await cancel(quote.quoteId)).toBe(true);
    };
    expect(await h.keeper.submit(request(quote.quoteId))).toMatchObject({ status: 409, code: "quote_not_open" });
    expect(h.store.count()).toBe(0);
    expect((await record(quote.quoteId)).status).toBe("cancelled");
  });

  it("claims the quote while the chain simulates: a cancel meanwhile is refused and the fill goes", async () => {
    const h = keeperHarness(env.DB);
    const { quote } = await seedQuote(env.DB);
    let answer = () => {};
    h.settler.duringPreflight = () => new Promise((resolve) => (answer = resolve));
    const submitting = h.keeper.submit(request(quote.quoteId));
    // The simulation has not answered; the signature verified and the claim is in D1.
    await vi.waitFor(async () => expect((await readQuoteProgress(env.DB, quote.quoteId))?.claimed).toBe(true));
    expect(await cancel(quote.quoteId)).toBe(false);
    answer();
    expect(await submitting).toMatchObject({ kind: "submitted" });
    expect(h.settler.sent).toHaveLength(1);
  });

  it("asks the chain while it checks the taker's signature, and refuses a bad one whatever the chain said", async () => {
    const h = keeperHarness(env.DB);
    const { quote } = await seedQuote(env.DB);
    let simulatingDuringCheck = 0;
    h.settler.duringVerify = async () => {
      simulatingDuringCheck = h.settler.preflights;
    };
    h.settler.signatureValid = false;
    expect(await h.keeper.submit(request(quote.quoteId))).toMatchObject({ status: 400, code: "bad_signature" });
    expect(simulatingDuringCheck).toBe(1);
    // Nothing claimed: the taker may cancel.
    expect(await cancel(quote.quoteId)).toBe(true);
    expect(h.settler.sent).toHaveLength(0);
  });

  it("refuses a taker at its limit of verified submissions before the chain is asked", async () => {
    const h = keeperHarness(env.DB);
    const taker = "0x00000000000000000000000000000000000a11ce";
    const limit = localConfig.limits.takerSubmissionsPer10s;
    h.settler.preparation = { kind: "requote", reason: "taker:insufficient_balance" };
    for (let i = 0; i < limit; i++) {
      const { quote } = await seedQuote(env.DB, { taker });
      expect(await h.keeper.submit(request(quote.quoteId))).toMatchObject({ kind: "requote" });
    }
    const { quote } = await seedQuote(env.DB, { taker });
    const asked = h.settler.preflights;
    expect(await h.keeper.submit(request(quote.quoteId))).toMatchObject({ status: 429, code: "rate_limited" });
    expect(h.settler.preflights).toBe(asked);
  });

  it("gives the claim up when the simulation does not pass, so the taker can cancel", async () => {
    const h = keeperHarness(env.DB);
    const { quote } = await seedQuote(env.DB);
    h.settler.readinessAnswer = { ready: false, reason: "permit2_not_approved", detail: "approve Permit2" };
    expect(await h.keeper.submit(request(quote.quoteId))).toMatchObject({ status: 400, code: "taker_not_ready" });
    h.settler.readinessAnswer = { ready: true };
    h.settler.preparation = { kind: "requote", reason: "taker:insufficient_balance" };
    expect(await h.keeper.submit(request(quote.quoteId))).toMatchObject({ kind: "requote" });
    expect(await cancel(quote.quoteId)).toBe(true);
    expect(h.settler.sent).toHaveLength(0);
  });

  it("lets the taker cancel again after a fill the network refused", async () => {
    const settler = new FakeSettler();
    const h = keeperHarness(env.DB, { settler });
    const { quote } = await seedQuote(env.DB);
    settler.broadcastAnswers.push({ status: "refused", reason: "underpriced" });
    expect(await h.keeper.submit(request(quote.quoteId))).toMatchObject({ code: "broadcast_failed" });
    expect(await cancel(quote.quoteId)).toBe(true);
  });

  it("of 16 concurrent cancels and submissions, never both a cancel and a fill", async () => {
    for (let i = 0; i < 16; i++) {
      const h = keeperHarness(env.DB);
      const { quote } = await seedQuote(env.DB);
      const [cancelled, submitted] = await Promise.all([
        cancel(quote.quoteId),
        h.keeper.submit(request(quote.quoteId)),
      ]);
      const filled = submitted.kind === "submitted";
      expect(cancelled && filled, `race ${i}`).toBe(false);
      expect(cancelled || filled, `race ${i}`).toBe(true);
      expect((await record(quote.quoteId)).status).toBe(filled ? "submitted" : "cancelled");
    }
  });
});
