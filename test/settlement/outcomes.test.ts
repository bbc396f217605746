import { maxUint256 } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import {
  approve,
  EVM,
  fundedResolver,
  getExecution,
  getQuote,
  keeperNonce,
  mint,
  newResolver,
  newTaker,
  runIndexer,
  seedQuote,
  signQuote,
  submit,
} from "./helpers";

/** What POST /v1/executions answers once the chain is asked: signatures, simulations, duplicates. */

describe("POST /v1/executions against the chain", () => {
  it("answers 400 bad_signature for a signature that is not the taker's, and leaves the quote as it was", async () => {
    const taker = await newTaker();
    const { quoteId, typedData } = await seedQuote({ taker: taker.address, resolver: fundedResolver(0) });
    const stranger = privateKeyToAccount(`0x${"42".repeat(32)}`);
    const res = await submit({ quoteId, signature: await signQuote(stranger, typedData) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "bad_signature" });
    const quote = await getQuote(quoteId);
    expect(quote.status).toBe("quoted");
    expect(quote.timeline.map((t) => t.event)).toEqual(["requested", "quoted"]);
  });

  it("requotes taker:insufficient_balance and keeps the quote open for the taker to fix", async () => {
    const taker = await newTaker({ tokens: 1_000_000n });
    const { quoteId, typedData } = await seedQuote({ taker: taker.address, resolver: fundedResolver(1) });
    const signature = await signQuote(taker, typedData);
    const nonce = await keeperNonce();

    const res = await submit({ quoteId, signature });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      quoteId,
      executionId: expect.stringMatching(/^x_/),
      status: "requote",
      reason: "taker:insufficient_balance",
    });
    const requoted = await getQuote(quoteId);
    expect(requoted.status).toBe("signed");
    expect(requoted.timeline.map((t) => t.event)).toEqual(["requested", "quoted", "signed", "requote"]);
    expect(requoted.timeline.at(-1)?.detail).toEqual({
      reason: "taker:insufficient_balance",
      executionId: res.body.executionId,
    });
    expect(await getExecution(String(res.body.executionId))).toMatchObject({
      status: "requote",
      reason: "taker:insufficient_balance",
      txHash: null,
      submitter: null,
      resolver: fundedResolver(1).address,
    });
    expect(await keeperNonce()).toBe(nonce);

    await mint(taker.address, 10_000_000_000n);
    const retry = await submit({ quoteId, signature });
    expect(retry.status).toBe(202);
    await runIndexer();
    const settled = await getQuote(quoteId);
    expect(settled.status).toBe("settled");
    expect(settled.executions.map((e) => e.status)).toEqual(["requote", "settled"]);
  });

  it("requotes what the resolver must fix and fails the quote", async () => {
    const taker = await newTaker();
    const resolver = await newResolver();
    const { quoteId, typedData } = await seedQuote({ taker: taker.address, resolver });
    await approve(resolver, EVM.usdc, EVM.executor, 0n);
    const signature = await signQuote(taker, typedData);

    const res = await submit({ quoteId, signature });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "requote", reason: "resolver:insufficient_allowance" });
    const failed = await getQuote(quoteId);
    expect(failed.status).toBe("failed");
    expect(failed.timeline.map((t) => t.event)).toEqual(["requested", "quoted", "signed", "requote", "failed"]);
    expect(failed.timeline.at(-1)?.detail).toMatchObject({ reason: "resolver:insufficient_allowance" });

    await approve(resolver, EVM.usdc, EVM.executor, maxUint256);
    const again = await submit({ quoteId, signature });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: "quote_not_open", status: "failed" });
  });

  it("requotes a bid the contract finds not the resolver's, as the resolver's fault (invalid_signature)", async () => {
    const taker = await newTaker();
    const { quoteId, typedData } = await seedQuote({
      taker: taker.address,
      resolver: fundedResolver(2),
      bidSigner: fundedResolver(3),
    });
    const res = await submit({ quoteId, signature: await signQuote(taker, typedData) });
    expect(res.body).toMatchObject({ status: "requote", reason: "resolver:invalid_signature" });
    expect((await getQuote(quoteId)).status).toBe("failed");
  });

  it("answers a repeated Idempotency-Key with the first execution, a requote included", async () => {
    const taker = await newTaker({ tokens: 1_000n });
    const { quoteId, typedData } = await seedQuote({ taker: taker.address, resolver: fundedResolver(0) });
    const signature = await signQuote(taker, typedData);
    const first = await submit({ quoteId, signature }, { "Idempotency-Key": "k-1" });
    expect(first.body).toMatchObject({ status: "requote" });
    await mint(taker.address, 10_000_000_000n);
    const repeat = await submit({ quoteId, signature }, { "Idempotency-Key": "k-1" });
    expect(repeat.status).toBe(200);
    expect(repeat.body).toEqual({
      quoteId,
      executionId: first.body.executionId,
      status: "requote",
      txHash: null,
      reason: "taker:insufficient_balance",
      duplicate: true,
    });
    // A new key is a new attempt, which now goes through.
    expect((await submit({ quoteId, signature }, { "Idempotency-Key": "k-2" })).status).toBe(202);
  });

  it("broadcasts once for concurrent submissions with one key: the others get the first execution", async () => {
    const taker = await newTaker();
    const { quoteId, typedData } = await seedQuote({ taker: taker.address, resolver: fundedResolver(1) });
    const signature = await signQuote(taker, typedData);
    const nonce = await keeperNonce();

    const answers = await Promise.all(
      Array.from({ length: 4 }, () => submit({ quoteId, signature }, { "Idempotency-Key": "same-key" })),
    );
    const submitted = answers.filter((a) => a.status === 202);
    expect(submitted).toHaveLength(1);
    const first = submitted[0]?.body;
    for (const a of answers.filter((x) => x.status !== 202)) {
      expect(a.status).toBe(200);
      expect(a.body).toMatchObject({ executionId: first?.executionId, txHash: first?.txHash, duplicate: true });
    }
    expect(await keeperNonce()).toBe(nonce + 1);
  });

  it("broadcasts once for concurrent submissions without a key: the others find the quote submitted", async () => {
    const taker = await newTaker();
    const { quoteId, typedData } = await seedQuote({ taker: taker.address, resolver: fundedResolver(2) });
    const signature = await signQuote(taker, typedData);
    const nonce = await keeperNonce();

    const answers = await Promise.all(Array.from({ length: 3 }, () => submit({ quoteId, signature })));
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409, 409]);
    for (const a of answers.filter((x) => x.status === 409)) {
      expect(a.body).toMatchObject({ error: "quote_not_open", status: "submitted" });
    }
    expect(await keeperNonce()).toBe(nonce + 1);
    expect((await getQuote(quoteId)).executions).toHaveLength(1);
  });

  it("shows a submission answered 202 at once, though D1 hears of it after the answer", async () => {
    const taker = await newTaker();
    const { quoteId, typedData } = await seedQuote({ taker: taker.address, resolver: fundedResolver(1) });
    const res = await submit({ quoteId, signature: await signQuote(taker, typedData) });
    expect(res.status).toBe(202);
    const { executionId, txHash } = res.body as { executionId: string; txHash: string };
    // Read the moment the answer is in: each read finds nothing in D1, or the quote claimed, and has the
    // keeper write what it answered first (src/quotes/read-through.ts).
    const [execution, quote] = await Promise.all([getExecution(executionId), getQuote(quoteId)]);
    expect(execution).toMatchObject({ executionId, status: "submitted", txHash });
    expect(quote.status).toBe("submitted");
    expect(quote.executions).toMatchObject([{ executionId, status: "submitted", txHash }]);
  });

  it.each([
    ["permit_expired", { deadline: "1", value: maxUint256.toString() }],
    ["permit_value_too_low", { deadline: String(Math.floor(Date.now() / 1000) + 600), value: "1" }],
  ])("answers 400 taker_not_ready %s for a permit that cannot cover the quote", async (reason, terms) => {
    const taker = await newTaker({ approvePermit2: false });
    const { quoteId, typedData } = await seedQuote({ taker: taker.address, resolver: fundedResolver(3) });
    const signature = await signQuote(taker, typedData);
    const permit = { ...terms, v: 27, r: `0x${"11".repeat(32)}`, s: `0x${"22".repeat(32)}` };
    const res = await submit({ quoteId, signature, permit });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "taker_not_ready", reason });
  });
});
