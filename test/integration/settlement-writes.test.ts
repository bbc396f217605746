import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readQuoteRecord, readSubmission } from "../../src/db/quotes";
import { readTotals } from "../../src/db/resolver-days";
import {
  countSettled,
  countSubmitted,
  finishExecution,
  IDEMPOTENCY_RETENTION_MS,
  idempotencyKeyStatement,
  insertExecutionOnce,
  quoteStepStatements,
  scopedIdempotencyKey,
} from "../../src/db/settlement";
import { writeFailed, writeRequote } from "../../src/db/settlement-steps";
import { newId } from "../../src/ids";
import { windowStart } from "../../src/resolvers/reliability";
import { seedQuote } from "../support/records";

/** The keeper's D1 writes, each written twice as a restart would: the second time changes nothing. */
const db = env.DB;
/** The file's tests share one database: each counts for a resolver of its own. */
const resolverAddress = () => `0x${newId("x").slice(2, 42).padEnd(40, "0")}`;
const TX = `0x${"cd".repeat(32)}`;
/** A resolver's reliability counters over the window. */
const totals = async (resolver: string) => (await readTotals(db, windowStart(Date.now()))).get(resolver.toLowerCase());

async function submitted(quoteId: string, executionId: string, at: string, resolver: string) {
  const terms = { executionId, quoteId, resolver, proceeds: "1500000000", takerPays: "1500000000" };
  await db.batch([
    countSubmitted(db, resolver, executionId, at),
    insertExecutionOnce(db, terms, "submitted", { reason: null, txHash: TX, submitter: "0xkeeper" }, at),
    ...quoteStepStatements(db, quoteId, "submitted", at, { txHash: TX }),
  ]);
}

describe("settlement writes", () => {
  it("records a submission once, however often it is written", async () => {
    const resolver = resolverAddress();
    const { quote } = await seedQuote(db, { resolver: { address: resolver, name: "alpha", solanaAddress: null } });
    const executionId = newId("x");
    const at = new Date().toISOString();
    await submitted(quote.quoteId, executionId, at, resolver);
    await submitted(quote.quoteId, executionId, at, resolver);
    const record = await readQuoteRecord(db, quote.quoteId);
    expect(record?.status).toBe("submitted");
    expect(record?.executions).toHaveLength(1);
    expect(record?.timeline.filter((t) => t.event === "submitted")).toEqual([
      { at, event: "submitted", detail: { txHash: TX } },
    ]);
    expect((await totals(resolver))?.submitted).toBe(1);
  });

  it("settles and finalises once, and only a submitted quote", async () => {
    const resolver = resolverAddress();
    const { quote } = await seedQuote(db, { resolver: { address: resolver, name: "alpha", solanaAddress: null } });
    const executionId = newId("x");
    const at = new Date().toISOString();
    const settlement = {
      txHash: TX,
      block: 7,
      blockTime: at,
      confirmed: false,
      confirmedAt: null,
      takerPays: "1500000000",
      proceeds: "1500000000",
      gasFee: quote.gasFee,
      submitter: "0xkeeper",
    };
    const settle = () =>
      db.batch([
        countSettled(db, resolver, executionId, at),
        finishExecution(db, executionId, "settled", { reason: null, gasUsed: "180000" }, at),
        ...quoteStepStatements(db, quote.quoteId, "settled", at, { block: 7 }, settlement),
      ]);
    // Not submitted yet: nothing moves.
    await settle();
    expect((await readQuoteRecord(db, quote.quoteId))?.status).toBe("quoted");

    await submitted(quote.quoteId, executionId, at, resolver);
    await settle();
    await settle();
    const final = () => db.batch(quoteStepStatements(db, quote.quoteId, "final", at, null));
    await final();
    await final();
    const record = await readQuoteRecord(db, quote.quoteId);
    expect(record?.status).toBe("settled");
    expect(record?.final).toBe(true);
    expect(record?.settlement).toEqual({ ...settlement, confirmed: true, confirmedAt: at });
    expect(record?.timeline.map((t) => t.event)).toEqual(["requested", "quoted", "submitted", "settled", "final"]);
    expect(record?.executions[0]).toMatchObject({ status: "settled", gasUsed: "180000" });
    expect(await totals(resolver)).toMatchObject({ submitted: 1, settled: 1 });
  });

  it("writes every requote as it happens, and fails the quote once", async () => {
    const { quote } = await seedQuote(db);
    const at = new Date().toISOString();
    const requote = (step: "takerRequote" | "requote") =>
      db.batch(quoteStepStatements(db, quote.quoteId, step, at, { reason: step }));
    await requote("takerRequote");
    await requote("takerRequote");
    expect((await readQuoteRecord(db, quote.quoteId))?.status).toBe("quoted");
    await requote("requote");
    await requote("requote");
    const record = await readQuoteRecord(db, quote.quoteId);
    expect(record?.status).toBe("failed");
    expect(record?.timeline.map((t) => t.event)).toEqual([
      "requested",
      "quoted",
      "requote",
      "requote",
      "requote",
      "failed",
    ]);
  });

  it("counts a failure against the winner once, and only one that was its own fault", async () => {
    const resolver = resolverAddress();
    const winner = { resolver: { address: resolver, name: "alpha", solanaAddress: null } };
    const at = new Date().toISOString();
    const terms = (quoteId: string) => ({
      executionId: newId("x"),
      quoteId,
      resolver,
      proceeds: "1500000000",
      takerPays: "1500000000",
      idempotencyKey: null,
      at,
    });
    // A requote of its own fault, written twice as a restart would: one failure.
    const own = terms((await seedQuote(db, winner)).quote.quoteId);
    const ownFailure = { reason: "resolver:insufficient_balance", resolversOwn: true };
    await writeRequote(db, own, "requote", ownFailure);
    await writeRequote(db, own, "requote", ownFailure);
    // The taker's requote: nothing.
    const takers = terms((await seedQuote(db, winner)).quote.quoteId);
    await writeRequote(db, takers, "takerRequote", { reason: "taker:nonce_used", resolversOwn: false });
    expect(await totals(resolver)).toMatchObject({ submitted: 0, settled: 0, failed: 1 });

    // Broadcast, then reverted: the taker's front-run is not counted, the resolver's revert is, once.
    const frontRun = terms((await seedQuote(db, winner)).quote.quoteId);
    const reverted = terms((await seedQuote(db, winner)).quote.quoteId);
    for (const t of [frontRun, reverted]) await submitted(t.quoteId, t.executionId, at, resolver);
    const failure = { txHash: TX, gasUsed: "90000" };
    const taker = { ...failure, reason: "taker:nonce_used", resolversOwn: false };
    expect(await writeFailed(db, frontRun, taker, at)).toBe(true);
    const resolvers = { ...failure, reason: "resolver:invalid_signature", resolversOwn: true };
    expect(await writeFailed(db, reverted, resolvers, at)).toBe(true);
    expect(await writeFailed(db, reverted, resolvers, at)).toBe(false);
    expect(await totals(resolver)).toMatchObject({ submitted: 2, settled: 0, failed: 2 });
    expect((await readQuoteRecord(db, frontRun.quoteId))?.executions[0]).toMatchObject({ reason: "taker:nonce_used" });
  });

  it("remembers an Idempotency-Key for 24 hours, then lets a new execution take it", async () => {
    const { quote } = await seedQuote(db);
    const first = newId("x");
    const second = newId("x");
    const terms = (executionId: string) => ({
      executionId,
      quoteId: quote.quoteId,
      resolver: null,
      proceeds: "1",
      takerPays: "1",
    });
    const repeatedFor = async (at: string) => (await readSubmission(db, quote.quoteId, "key", at)).repeated;
    const then = new Date(Date.now() - IDEMPOTENCY_RETENTION_MS - 1_000).toISOString();
    const now = new Date().toISOString();
    await db.batch([
      insertExecutionOnce(db, terms(first), "requote", { reason: "r", txHash: null, submitter: null }, then),
      idempotencyKeyStatement(db, scopedIdempotencyKey(quote.taker, "key"), first, then),
    ]);
    expect((await repeatedFor(then))?.executionId).toBe(first);
    expect(await repeatedFor(now)).toBeNull();
    await db.batch([
      insertExecutionOnce(db, terms(second), "requote", { reason: "r", txHash: null, submitter: null }, now),
      idempotencyKeyStatement(db, scopedIdempotencyKey(quote.taker, "key"), second, now),
    ]);
    expect((await repeatedFor(now))?.executionId).toBe(second);
  });
});
