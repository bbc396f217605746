import type { Hex } from "viem";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  balanceOf,
  chainClient,
  EVM,
  fundedResolver,
  getQuote,
  KEEPER,
  newTaker,
  runIndexer,
  seedQuote,
  setFault,
  signQuote,
  submit,
  testClient,
  walletOf,
} from "./helpers";

/**
 * Stuck transactions and reorgs on anvil (docs/settlement.md, "Stuck transactions", "Reorgs"): a fill
 * not mined in time is replaced with the same nonce at a higher fee and settles once; a settlement whose
 * block is reverted before `final` goes back to `submitted`, is followed and settles again, or fails when
 * its transaction is gone. Here a transaction is replaced after 1 s (vitest.config.ts).
 */

async function signedQuote() {
  const taker = await newTaker();
  const { quoteId, typedData, quote } = await seedQuote({ taker: taker.address, resolver: fundedResolver(0) });
  return { taker, quoteId, quote, signature: await signQuote(taker, typedData) };
}

const events = async (quoteId: string) => (await getQuote(quoteId)).timeline.map((t) => t.event);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

afterEach(async () => {
  await setFault("none");
  await testClient.setAutomine(true);
  await runIndexer();
});

describe("a stuck transaction", () => {
  it("is replaced with the same nonce at a higher fee, and the fill lands once", async () => {
    const { taker, quoteId, quote, signature } = await signedQuote();
    const before = await balanceOf(EVM.cngn, taker.address);
    await testClient.setAutomine(false);
    const res = await submit({ quoteId, signature });
    expect(res.status).toBe(202);
    const first = res.body.txHash as Hex;
    const original = await chainClient.getTransaction({ hash: first });
    // A transaction is stuck a while after the store says it was sent, which it says once the submission's
    // record is written, behind the answer: a pass run now (nothing stuck yet) starts that clock here.
    await runIndexer();
    expect((await getQuote(quoteId)).executions[0]?.txHash).toBe(first);

    // The keeper's RPC is down but for the test's pass that replaces the transaction: a pass a second after
    // the replacement (the alarm's own, or the test's under load) would replace it again before the block.
    await setFault("down");
    await sleep(1_100);
    await setFault("none");
    await runIndexer();
    await setFault("down");
    const bumped = (await getQuote(quoteId)).executions[0]?.txHash as Hex;
    expect(bumped).not.toBe(first);
    const replacement = await chainClient.getTransaction({ hash: bumped });
    expect(replacement.nonce).toBe(original.nonce);
    expect(replacement.maxFeePerGas).toBeGreaterThanOrEqual(((original.maxFeePerGas ?? 0n) * 125n) / 100n);
    expect((await getQuote(quoteId)).timeline.at(-1)).toMatchObject({
      event: "submitted",
      detail: { txHash: bumped, replaces: first, bump: 1 },
    });

    await testClient.mine({ blocks: 1 });
    await setFault("none");
    await runIndexer();
    const settled = await getQuote(quoteId);
    expect(settled.status).toBe("settled");
    expect(settled.settlement?.txHash).toBe(bumped);
    expect(settled.executions).toMatchObject([{ status: "settled", txHash: bumped }]);
    // One fill: the taker paid once, and the first transaction never made it into a block.
    expect(await balanceOf(EVM.cngn, taker.address)).toBe(before - BigInt(quote.takerPays));
    await expect(chainClient.getTransactionReceipt({ hash: first })).rejects.toThrow();
    expect(await events(quoteId)).toEqual(["requested", "quoted", "signed", "submitted", "submitted", "settled"]);
  });
});

describe("a reorg before final", () => {
  it("takes the settlement back to submitted and follows the transaction to its new block", async () => {
    const { taker, quoteId, quote, signature } = await signedQuote();
    const before = await balanceOf(EVM.cngn, taker.address);
    const snapshot = await testClient.snapshot();
    const res = await submit({ quoteId, signature });
    expect(res.status).toBe(202);
    const txHash = res.body.txHash as Hex;
    await runIndexer();
    const settled = await getQuote(quoteId);
    expect(settled).toMatchObject({ status: "settled", final: false });
    const block = settled.settlement?.block;

    // The block with the fill is gone; the keeper finds its transaction missing and sends it again.
    await testClient.revert({ id: snapshot });
    await runIndexer();
    const back = await getQuote(quoteId);
    expect(back).toMatchObject({ status: "submitted", settlement: null, fills: [] });
    expect(back.timeline.at(-1)).toMatchObject({ event: "submitted", detail: { txHash, reorgedFrom: block } });

    await runIndexer();
    await testClient.mine({ blocks: 1 });
    await runIndexer();
    const final = await getQuote(quoteId);
    expect(final).toMatchObject({ status: "settled", final: true });
    expect(final.settlement?.txHash).toBe(txHash);
    expect(await events(quoteId)).toEqual([
      "requested",
      "quoted",
      "signed",
      "submitted",
      "settled",
      "submitted",
      "settled",
      "final",
    ]);
    expect(await balanceOf(EVM.cngn, taker.address)).toBe(before - BigInt(quote.takerPays));
  });

  it("fails the quote when its transaction is gone: another took its nonce", async () => {
    const { quoteId, signature } = await signedQuote();
    const snapshot = await testClient.snapshot();
    const res = await submit({ quoteId, signature });
    expect(res.status).toBe(202);
    const { nonce } = await chainClient.getTransaction({ hash: res.body.txHash as Hex });
    await runIndexer();
    expect((await getQuote(quoteId)).status).toBe("settled");

    await testClient.revert({ id: snapshot });
    await walletOf(KEEPER).sendTransaction({ to: KEEPER.address, value: 0n, nonce });
    // The new chain is as high as the old one was: the settlement is read again once it moves past it.
    await testClient.mine({ blocks: 1 });
    const errors = vi.spyOn(console, "error");
    await runIndexer();
    const failed = await getQuote(quoteId);
    expect(failed.status).toBe("failed");
    expect(failed.executions).toMatchObject([{ status: "failed", reason: "relay:dropped" }]);
    // A failure the relay is blamed for after broadcast is logged as one, as a simulation's is (docs/reliability.md, "Blame").
    const faults = errors.mock.calls.map((c) => JSON.stringify(c)).filter((c) => c.includes("relay_fault"));
    errors.mockRestore();
    expect(faults).toHaveLength(1);
    expect(faults[0]).toContain(quoteId);
    expect(faults[0]).toContain("relay:dropped");
    expect((await events(quoteId)).slice(-3)).toEqual(["settled", "submitted", "failed"]);
  });
});
