import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readExecutionRecord } from "../../src/db/executions";
import { type QuoteRow, readQuoteRecord } from "../../src/db/quotes";
import { readResolver, upsertRegistration } from "../../src/db/resolvers";
import { strike } from "../../src/resolvers/strikes";
import { watchingBatches } from "../support/d1-batches";
import { keeperHarness } from "../support/fake-keeper-port";
import { FakeSettler } from "../support/fake-settler";
import { freshResolver, seedQuote } from "../support/records";

/**
 * The keeper's indexer through its ports (docs/settlement.md, "The indexer and finality"): a real local
 * D1, an in-memory chain whose receipts and head the tests set. Each pass is run by hand.
 */
const SIGNATURE = `0x${"11".repeat(65)}`;
const record = async (quoteId: string) => {
  const r = await readQuoteRecord(env.DB, quoteId);
  if (!r) throw new Error(`no quote ${quoteId}`);
  return r;
};

/** A quote submitted through the keeper: its id, the execution and the transaction's hash. */
async function submitted(h: ReturnType<typeof keeperHarness>, overrides: Partial<QuoteRow> = {}) {
  const { quote } = await seedQuote(env.DB, overrides);
  const outcome = await h.keeper.submit({
    quoteId: quote.quoteId,
    takerPart: { signature: SIGNATURE },
    permit: null,
    idempotencyKey: null,
  });
  if (outcome.kind !== "submitted") throw new Error(`not submitted: ${JSON.stringify(outcome)}`);
  return { quote, executionId: outcome.executionId, txHash: outcome.txHash };
}

describe("the keeper's indexer", () => {
  it("leaves a transaction still on its way as it is", async () => {
    const h = keeperHarness(env.DB);
    const { quote, txHash } = await submitted(h);
    expect(await h.keeper.index()).toBe(true);
    expect((await record(quote.quoteId)).status).toBe("submitted");
    expect(h.store.get(txHash)?.state).toBe("sent");
  });

  it("settles a landed fill, then marks it final once it is deep enough", async () => {
    const h = keeperHarness(env.DB);
    const { quote, executionId, txHash } = await submitted(h);
    const receipt = h.settler.land(txHash, quote.quoteId, {
      sellToken: quote.sellToken,
      resolver: quote.resolver?.address ?? "",
      sellAmount: BigInt(quote.sellAmount),
    });

    expect(await h.keeper.index()).toBe(true);
    const settled = await record(quote.quoteId);
    expect(settled.status).toBe("settled");
    expect(settled.final).toBe(false);
    expect(settled.settlement).toMatchObject({ txHash, block: receipt.block, confirmed: false, confirmedAt: null });
    expect(settled.fills).toMatchObject([{ orderHash: receipt.fills[0]?.orderHash, logIndex: 0 }]);
    expect(settled.executions).toMatchObject([{ executionId, status: "settled", gasUsed: "150000" }]);
    expect(h.notified.map((n) => n.update.status)).toEqual(["submitted", "settled"]);

    // Two confirmations: its own block and one on top.
    h.settler.headBlock = receipt.block + 1;
    expect(await h.keeper.index()).toBe(false);
    const final = await record(quote.quoteId);
    expect(final.final).toBe(true);
    expect(final.settlement).toMatchObject({ confirmed: true });
    expect(final.timeline.map((t) => t.event)).toEqual([
      "requested",
      "quoted",
      "signed",
      "submitted",
      "settled",
      "final",
    ]);
    expect(h.store.count()).toBe(0);
    // Each step's event streams were told, once per step (src/streams/announce.ts).
    expect(h.grown).toEqual([quote.quoteId, quote.quoteId, quote.quoteId]);

    // Passes are idempotent: another changes nothing.
    await h.keeper.index();
    expect((await record(quote.quoteId)).timeline).toEqual(final.timeline);
  });

  it("reads every transaction it follows in one read a pass, each settled and then checked at the new head", async () => {
    const h = keeperHarness(env.DB);
    const fills = [await submitted(h), await submitted(h), await submitted(h), await submitted(h)];
    // Two landed, one reverted, one still on its way.
    const [a, b, c, d] = fills as [(typeof fills)[0], (typeof fills)[0], (typeof fills)[0], (typeof fills)[0]];
    for (const f of [a, b]) {
      h.settler.land(f.txHash, f.quote.quoteId, {
        sellToken: f.quote.sellToken,
        resolver: f.quote.resolver?.address ?? "",
        sellAmount: BigInt(f.quote.sellAmount),
      });
    }
    h.settler.setStatus(c.txHash, { state: "reverted", reason: "resolver:insufficient_balance", gasUsed: 1n });

    await h.keeper.index();
    expect(h.settler.statusReads).toEqual([4]);
    expect((await record(a.quote.quoteId)).status).toBe("settled");
    expect((await record(b.quote.quoteId)).status).toBe("settled");
    expect((await record(c.quote.quoteId)).status).toBe("failed");
    expect((await record(d.quote.quoteId)).status).toBe("submitted");

    // The chain moved: the two settlements (whether a reorg moved them) and the one on its way, in one read.
    h.settler.headBlock += 1;
    await h.keeper.index();
    expect(h.settler.statusReads).toEqual([4, 3]);
    expect((await record(a.quote.quoteId)).final).toBe(true);
    expect((await record(b.quote.quoteId)).final).toBe(true);
    // Only the one on its way is left; the head did not move, so nothing settled is read again.
    await h.keeper.index();
    expect(h.settler.statusReads).toEqual([4, 3, 1]);
  });

  it("writes a pass's settlements in one D1 batch, and their finals in one at the next", async () => {
    const batches: number[] = [];
    const db = watchingBatches(env.DB, (statements) => batches.push(statements.length));
    const h = keeperHarness(db);
    const fills = [];
    for (let i = 0; i < 5; i++) fills.push(await submitted(h));
    await h.keeper.writeThrough(fills[4]?.quote.quoteId ?? "");
    for (const f of fills) {
      h.settler.land(f.txHash, f.quote.quoteId, {
        sellToken: f.quote.sellToken,
        resolver: f.quote.resolver?.address ?? "",
        sellAmount: BigInt(f.quote.sellAmount),
      });
    }
    batches.length = 0;
    await h.keeper.index();
    expect(batches).toHaveLength(1);
    for (const f of fills) expect((await record(f.quote.quoteId)).status).toBe("settled");

    h.settler.headBlock += 1;
    batches.length = 0;
    expect(await h.keeper.index()).toBe(false);
    expect(batches).toHaveLength(1);
    for (const f of fills) expect((await record(f.quote.quoteId)).final).toBe(true);
  });

  it("fails a reverted transaction with the chain's reason and its gas", async () => {
    const h = keeperHarness(env.DB);
    const { quote, executionId, txHash } = await submitted(h);
    h.settler.setStatus(txHash, { state: "reverted", reason: "resolver:insufficient_allowance", gasUsed: 90_000n });

    expect(await h.keeper.index()).toBe(false);
    const failed = await record(quote.quoteId);
    expect(failed.status).toBe("failed");
    expect(failed.timeline.at(-1)).toMatchObject({
      event: "failed",
      detail: { reason: "resolver:insufficient_allowance", txHash },
    });
    expect(failed.executions).toMatchObject([
      { executionId, status: "failed", reason: "resolver:insufficient_allowance", gasUsed: "90000" },
    ]);
    expect(h.notified.at(-1)?.update).toEqual({ quoteId: quote.quoteId, status: "failed", txHash });
    expect(h.grown).toEqual([quote.quoteId, quote.quoteId]);
  });

  it("strikes the winner of a fill that reverted, and heals it with a settled one", async () => {
    const h = keeperHarness(env.DB);
    // A resolver of its own: the fills of earlier tests here, still in flight, would explain its shortfall
    // as the relay's (src/keeper/spent-by-relay.ts), and their failures would have struck it.
    const winner = { resolver: freshResolver() };
    const first = await submitted(h, winner);
    const resolver = first.quote.resolver?.address ?? "";
    await upsertRegistration(env.DB, resolver, { name: "alpha" }, new Date().toISOString());
    h.settler.setStatus(first.txHash, { state: "reverted", reason: "resolver:insufficient_balance", gasUsed: 1n });
    await h.keeper.index();
    const reason = "strike 1: transaction resolver:insufficient_balance; demoted for 15 min";
    expect(h.demotions).toMatchObject([{ resolver, demotion: { reason } }]);
    expect(await readResolver(env.DB, resolver)).toMatchObject({ demotionReason: reason, demotions: 1 });
    // The same failure applied again (a restart) is not a second strike.
    expect(
      await strike(env.DB, { resolver, event: first.executionId, why: "again", now: Date.now() }, () => {}),
    ).toBeNull();

    const second = await submitted(h, winner);
    h.settler.land(second.txHash, second.quote.quoteId, {
      sellToken: second.quote.sellToken,
      resolver,
      sellAmount: BigInt(second.quote.sellAmount),
    });
    await h.keeper.index();
    const healed = await env.DB.prepare("SELECT strikes, clean_fills FROM resolvers WHERE address = ?")
      .bind(resolver.toLowerCase())
      .first();
    expect(healed).toEqual({ strikes: 1, clean_fills: 1 });
  });

  it("strikes nobody for a fill that failed for the relay's reasons", async () => {
    const h = keeperHarness(env.DB);
    const first = await submitted(h);
    const second = await submitted(h);
    const resolver = first.quote.resolver?.address ?? "";
    await upsertRegistration(env.DB, resolver, { name: "alpha" }, new Date().toISOString());
    const before = await readResolver(env.DB, resolver);
    h.settler.setStatus(first.txHash, { state: "reverted", reason: "relay:reverted", gasUsed: 1n });
    h.settler.setStatus(second.txHash, { state: "dropped" });
    await h.keeper.index();
    expect(h.demotions).toEqual([]);
    expect((await readResolver(env.DB, resolver))?.demotions).toBe(before?.demotions);
    expect((await record(first.quote.quoteId)).executions).toMatchObject([
      { status: "failed", reason: "relay:reverted", blame: "relay" },
    ]);
    expect((await record(second.quote.quoteId)).executions).toMatchObject([
      { status: "failed", reason: "relay:dropped", blame: "relay" },
    ]);
  });

  it("fails a dropped transaction", async () => {
    const h = keeperHarness(env.DB);
    const { quote, executionId, txHash } = await submitted(h);
    h.settler.setStatus(txHash, { state: "dropped" });

    await h.keeper.index();
    const failed = await record(quote.quoteId);
    expect(failed.status).toBe("failed");
    expect(failed.timeline.at(-1)).toMatchObject({ event: "failed", detail: { reason: "relay:dropped", txHash } });
    expect(failed.executions).toMatchObject([{ executionId, status: "failed", reason: "relay:dropped" }]);
    expect(h.store.count()).toBe(0);
  });

  it("finds on the network a broadcast whose answer was lost, without sending it again", async () => {
    const h = keeperHarness(env.DB);
    h.settler.broadcastAnswers.push({ status: "unreachable", reason: "timeout" });
    const { quote, txHash } = await submitted(h);
    h.settler.acceptSilently(txHash);
    expect(h.store.get(txHash)?.state).toBe("signed");
    expect((await record(quote.quoteId)).status).toBe("submitted");

    await h.keeper.index();
    expect(h.store.get(txHash)?.state).toBe("sent");
    expect(h.settler.sent).toEqual([]);
    expect(h.notified.map((n) => n.update.status)).toEqual(["submitted"]);
  });

  it("broadcasts again, the same transaction, one the network never got", async () => {
    const h = keeperHarness(env.DB);
    h.settler.broadcastAnswers.push({ status: "unreachable", reason: "timeout" });
    const { txHash } = await submitted(h);

    await h.keeper.index();
    expect(h.settler.sent).toEqual([txHash]);
    expect(h.store.get(txHash)?.state).toBe("sent");
  });

  it("fails, as dropped, a recovered broadcast the network refuses, and frees its nonce", async () => {
    const h = keeperHarness(env.DB);
    h.settler.broadcastAnswers.push(
      { status: "unreachable", reason: "timeout" },
      { status: "refused", reason: "nonce_too_low" },
    );
    const { quote, txHash } = await submitted(h);

    expect(await h.keeper.index()).toBe(false);
    expect((await record(quote.quoteId)).timeline.at(-1)).toMatchObject({
      event: "failed",
      detail: { reason: "relay:dropped:nonce_too_low", txHash },
    });
    expect(h.settler.released).toEqual([0]);
    expect(h.store.count()).toBe(0);
  });

  it("waits, keeping everything, while the chain does not answer", async () => {
    const h = keeperHarness(env.DB);
    const { quote, txHash } = await submitted(h);
    h.settler.down = true;
    expect(await h.keeper.index()).toBe(true);
    expect(h.store.get(txHash)?.state).toBe("sent");
    expect((await record(quote.quoteId)).status).toBe("submitted");
  });
});

describe('a submission\'s record, written once its answer has left (docs/settlement.md, "The fast path")', () => {
  it("answers before D1 has the execution, keeps the transaction from the indexer, and writes it through when asked", async () => {
    const h = keeperHarness(env.DB, { recordLater: true });
    const { quote, executionId, txHash } = await submitted(h);
    // Answered: the chain has it, D1 not yet, and the indexer leaves it to the record to come.
    expect(h.settler.sent).toEqual([txHash]);
    expect(await readExecutionRecord(env.DB, executionId)).toBeNull();
    expect((await record(quote.quoteId)).status).toBe("quoted");
    await h.keeper.index();
    expect(h.store.get(txHash)?.state).toBe("signed");
    expect(h.settler.sent).toEqual([txHash]);

    // A reader that finds nothing has it written now, by its execution's id or its quote's.
    expect(await h.keeper.writeThrough(executionId)).toBe(true);
    expect(await readExecutionRecord(env.DB, executionId)).toMatchObject({ status: "submitted", txHash });
    expect((await record(quote.quoteId)).status).toBe("submitted");
    expect(h.store.get(txHash)?.state).toBe("sent");
    expect(h.notified.map((n) => n.update.status)).toEqual(["submitted"]);
    expect(await h.keeper.writeThrough(quote.quoteId)).toBe(false);

    // The record the object runs after the answer finds it written: it runs once.
    await h.recordAnswered();
    expect(h.notified.map((n) => n.update.status)).toEqual(["submitted"]);
    expect(h.indexerArmed()).toBe(1);
  });

  it("leaves a record lost with its object to the restarted keeper's indexer, which writes it from the store", async () => {
    const first = keeperHarness(env.DB, { recordLater: true });
    const { quote, executionId, txHash } = await submitted(first);
    // Evicted after its answer: the record never runs. A keeper over the same store and chain:
    const h = keeperHarness(env.DB, { store: first.store, settler: first.settler });
    expect(await h.keeper.writeThrough(executionId)).toBe(false);
    expect(await h.keeper.index()).toBe(true);
    expect(await readExecutionRecord(env.DB, executionId)).toMatchObject({ status: "submitted", txHash });
    expect((await record(quote.quoteId)).status).toBe("submitted");
    expect(h.store.get(txHash)?.state).toBe("sent");
    expect(first.settler.sent).toEqual([txHash]);
  });
});

describe("stuck transactions and reorgs (docs/settlement.md)", () => {
  /** A wallet whose nonces no other test's uses: fills are keyed by transaction hash. */
  const wallet = (firstNonce: number) => Object.assign(new FakeSettler(), { nextNonce: firstNonce });

  it("replaces a transaction not mined in time with a higher fee, at most maxBumps times, and settles the one that lands", async () => {
    let now = Date.now();
    const h = keeperHarness(env.DB, { now: () => now, settler: wallet(1_000) });
    const { quote, executionId, txHash } = await submitted(h);
    const { afterMs, maxBumps } = h.settler.replacement;
    await h.keeper.index();
    expect(h.settler.sent).toEqual([txHash]);

    now += afterMs;
    await h.keeper.index();
    const first = `${txHash}~1`;
    expect(h.settler.sent).toEqual([txHash, first]);
    expect(h.store.get(first)).toMatchObject({ state: "sent", replaced: [{ hash: txHash }] });
    let r = await record(quote.quoteId);
    expect(r.executions).toMatchObject([{ executionId, status: "submitted", txHash: first }]);
    expect(r.timeline.at(-1)).toMatchObject({
      event: "submitted",
      detail: { txHash: first, replaces: txHash, bump: 1 },
    });

    // Not again before its own wait, and never past maxBumps.
    await h.keeper.index();
    expect(h.settler.sent).toHaveLength(2);
    for (let i = 1; i < maxBumps + 2; i++) {
      now += afterMs;
      await h.keeper.index();
    }
    expect(h.settler.sent).toHaveLength(1 + maxBumps);
    const last = `${txHash}~${maxBumps}`;

    // The first replacement lands (the nonce's others are then dropped): settled as that one, once.
    h.settler.setStatus(last, { state: "dropped" });
    h.settler.land(first, quote.quoteId, {
      sellToken: quote.sellToken,
      resolver: quote.resolver?.address ?? "",
      sellAmount: BigInt(quote.sellAmount),
    });
    await h.keeper.index();
    r = await record(quote.quoteId);
    expect(r.status).toBe("settled");
    expect(r.settlement?.txHash).toBe(first);
    expect(r.executions).toMatchObject([{ executionId, status: "settled", txHash: first }]);
    expect(r.fills.map((f) => f.orderHash)).toHaveLength(1);
    expect(r.timeline.map((t) => t.event)).toEqual([
      "requested",
      "quoted",
      "signed",
      "submitted",
      "submitted",
      "submitted",
      "settled",
    ]);
  });

  it("takes a settlement reorged away before final back to submitted, then settles it where it lands again", async () => {
    const h = keeperHarness(env.DB, { settler: wallet(2_000) });
    const { quote, executionId, txHash } = await submitted(h);
    const fill = {
      sellToken: quote.sellToken,
      resolver: quote.resolver?.address ?? "",
      sellAmount: BigInt(quote.sellAmount),
    };
    const receipt = h.settler.land(txHash, quote.quoteId, fill);
    await h.keeper.index();
    expect((await record(quote.quoteId)).status).toBe("settled");

    // The block is gone, a new head in its place; the transaction is back among the pending ones.
    h.settler.headBlock = receipt.block + 1;
    h.settler.setStatus(txHash, { state: "pending" });
    await h.keeper.index();
    let r = await record(quote.quoteId);
    expect(r).toMatchObject({ status: "submitted", final: false, settlement: null, fills: [] });
    expect(r.executions).toMatchObject([{ executionId, status: "submitted", gasUsed: null }]);
    expect(r.timeline.at(-1)).toMatchObject({ event: "submitted", detail: { txHash, reorgedFrom: receipt.block } });
    expect(h.store.get(txHash)?.state).toBe("sent");

    // It lands again, a block later, and becomes final from there.
    h.settler.setStatus(txHash, { state: "landed", receipt: { ...receipt, block: receipt.block + 1 } });
    await h.keeper.index();
    h.settler.headBlock = receipt.block + 5;
    await h.keeper.index();
    r = await record(quote.quoteId);
    expect(r).toMatchObject({ status: "settled", final: true });
    expect(r.settlement?.block).toBe(receipt.block + 1);
    expect(r.fills).toHaveLength(1);
    expect(r.timeline.map((t) => t.event)).toEqual([
      "requested",
      "quoted",
      "signed",
      "submitted",
      "settled",
      "submitted",
      "settled",
      "final",
    ]);
    expect(h.grown.length).toBeGreaterThanOrEqual(5);
  });

  it("fails a settlement reorged away whose transaction is gone", async () => {
    const h = keeperHarness(env.DB, { settler: wallet(3_000) });
    const { quote, txHash } = await submitted(h);
    h.settler.land(txHash, quote.quoteId, {
      sellToken: quote.sellToken,
      resolver: quote.resolver?.address ?? "",
      sellAmount: BigInt(quote.sellAmount),
    });
    await h.keeper.index();
    h.settler.headBlock += 1;
    h.settler.setStatus(txHash, { state: "dropped" });
    await h.keeper.index();
    const r = await record(quote.quoteId);
    expect(r.status).toBe("failed");
    expect(r.timeline.map((t) => t.event).slice(-3)).toEqual(["settled", "submitted", "failed"]);
    expect(r.executions).toMatchObject([{ status: "failed", reason: "relay:dropped" }]);
    expect(h.store.count()).toBe(0);
  });
});
