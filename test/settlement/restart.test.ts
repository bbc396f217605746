import { evictDurableObject } from "cloudflare:test";
import { type Hex, keccak256, type LocalAccount } from "viem";
import { afterEach, describe, expect, it } from "vitest";
import type { PendingTx } from "../../src/keeper/pending";
import {
  approve,
  chainClient,
  chainKeeper,
  crashAtBroadcast,
  EVM,
  fundedResolver,
  getExecution,
  indexUntil,
  KEEPER,
  keeperNonce,
  newResolver,
  newTaker,
  pendingTxs,
  releaseSends,
  runIndexer,
  seedQuote,
  sentThroughProxy,
  setFault,
  signQuote,
  submit,
  testClient,
} from "./helpers";

/**
 * Restart safety (docs/settlement.md): a transaction is stored before it is broadcast, and the keeper's
 * alarm finishes whatever a previous instance left, without ever broadcasting a second fill.
 */

async function signedQuote(resolver: LocalAccount = fundedResolver(0)) {
  const taker = await newTaker();
  const { quoteId, typedData } = await seedQuote({ taker: taker.address, resolver });
  return { quoteId, signature: await signQuote(taker, typedData) };
}

/**
 * A submission cut short at its broadcast by a crash (`crashAtBroadcast`): the transaction stored, signed,
 * never sent. The proxy holds every broadcast until the test releases it.
 */
async function recordOnly(quoteId: string, signature: string, idempotencyKey: string | null = null) {
  const [pending] = await crashAtBroadcast([{ quoteId, takerPart: { signature }, permit: null, idempotencyKey }]);
  return pending as PendingTx;
}

const timesSent = async (hash: string) =>
  (await sentThroughProxy()).filter((raw) => keccak256(raw as Hex) === hash).length;

afterEach(async () => {
  await releaseSends();
  await setFault("none");
  await testClient.setAutomine(true);
});

describe("the keeper across restarts", () => {
  it("broadcasts, once, a transaction stored before an eviction cut its broadcast short", async () => {
    const { quoteId, signature } = await signedQuote();
    const nonce = await keeperNonce();
    const pending = await recordOnly(quoteId, signature);
    expect(pending).toMatchObject({ state: "signed", nonce });
    expect(await timesSent(pending.hash)).toBe(0);

    await releaseSends();
    await evictDurableObject(chainKeeper());
    const settled = await indexUntil(quoteId, (q) => q.status === "settled");
    expect(settled.status).toBe("settled");
    expect(settled.settlement?.txHash).toBe(pending.hash);
    expect(settled.timeline.map((t) => t.event)).toEqual(["requested", "quoted", "signed", "submitted", "settled"]);
    expect(await timesSent(pending.hash)).toBe(1);
    expect(await keeperNonce()).toBe(nonce + 1);
    expect(await getExecution(pending.submission.executionId)).toMatchObject({
      status: "settled",
      txHash: pending.hash,
      submitter: KEEPER.address,
    });
  });

  it("answers a repeated Idempotency-Key with the first execution however far it got before an eviction", async () => {
    const { quoteId, signature } = await signedQuote(fundedResolver(3));
    // Stored and signed, not yet broadcast nor in D1: the 202 never left.
    const pending = await recordOnly(quoteId, signature, "swap-7");
    // Asked again by the restarted keeper while its broadcasts are still held: D1 has not heard of it.
    const first = { executionId: pending.submission.executionId, duplicate: true };
    const stored = await submit({ quoteId, signature }, { "Idempotency-Key": "swap-7" });
    expect(stored).toMatchObject({ status: 200, body: { ...first, status: "submitted", txHash: pending.hash } });
    await releaseSends();

    const settled = await indexUntil(quoteId, (q) => q.status === "settled");
    expect(settled.executions).toHaveLength(1);
    const after = await submit({ quoteId, signature }, { "Idempotency-Key": "swap-7" });
    expect(after).toMatchObject({ status: 200, body: { ...first, status: "settled", txHash: pending.hash } });
    expect(await timesSent(pending.hash)).toBe(1);
  });

  it("finds on chain, and does not send again, a transaction broadcast just before the object went away", async () => {
    const { quoteId, signature } = await signedQuote(fundedResolver(1));
    const pending = await recordOnly(quoteId, signature);
    // The broadcast reached the network; the instance did not live to write that down.
    await chainClient.request({ method: "eth_sendRawTransaction", params: [pending.raw as Hex] });

    await releaseSends();
    await evictDurableObject(chainKeeper());
    const settled = await indexUntil(quoteId, (q) => q.status === "settled");
    expect(settled.settlement?.txHash).toBe(pending.hash);
    expect(await timesSent(pending.hash)).toBe(0);
  });

  it("follows a broadcast transaction from storage after an eviction, to settled and final", async () => {
    const { quoteId, signature } = await signedQuote(fundedResolver(2));
    const res = await submit({ quoteId, signature });
    expect(res.status).toBe(202);

    await evictDurableObject(chainKeeper());
    expect((await pendingTxs()).map((tx) => tx.hash)).toContain(res.body.txHash);
    const settled = await indexUntil(quoteId, (q) => q.status === "settled");
    expect(settled.final).toBe(false);
    await testClient.mine({ blocks: 1 });
    await evictDurableObject(chainKeeper());
    const final = await indexUntil(quoteId, (q) => q.final);
    expect(final.final).toBe(true);
    expect(final.timeline.filter((t) => t.event === "settled")).toHaveLength(1);
    expect((await pendingTxs()).map((tx) => tx.hash)).not.toContain(res.body.txHash);
    expect(await timesSent(String(res.body.txHash))).toBe(1);
  });

  it("records a transaction that reverted on chain as failed, with the reason", async () => {
    const resolver = await newResolver();
    const { quoteId, signature } = await signedQuote(resolver);
    const pending = await recordOnly(quoteId, signature);
    // Between the simulation and the broadcast the resolver withdraws its approval; the restarted keeper
    // sends the stored transaction.
    await approve(resolver, EVM.usdc, EVM.executor, 0n);
    await releaseSends();
    const failed = await indexUntil(quoteId, (q) => q.status === "failed");
    const receipt = await chainClient.getTransactionReceipt({ hash: pending.hash as Hex });
    expect(receipt.status).toBe("reverted");
    expect(failed.status).toBe("failed");
    expect(failed.timeline.at(-1)).toMatchObject({
      event: "failed",
      detail: { reason: "resolver:insufficient_allowance", txHash: pending.hash },
    });
    expect(await getExecution(pending.submission.executionId)).toMatchObject({
      status: "failed",
      reason: "resolver:insufficient_allowance",
      gasUsed: receipt.gasUsed.toString(),
    });
    expect((await pendingTxs()).map((tx) => tx.hash)).not.toContain(pending.hash);
  });

  it("sends the same transaction again when the network drops it, and it settles", async () => {
    const { quoteId, signature } = await signedQuote(fundedResolver(3));
    await testClient.setAutomine(false);
    const res = await submit({ quoteId, signature });
    expect(res.status).toBe(202);
    const txHash = res.body.txHash as Hex;
    // The keeper's RPC is down while the network drops it, and the chain mines what it is sent from then
    // on: a pass of the keeper a second after the send (its alarm's, or ours under load) would otherwise
    // find it waiting and replace it at a higher fee (the stuck-transaction rule), and the replacement
    // would be what settles.
    await setFault("down");
    await testClient.dropTransaction({ hash: txHash });
    await testClient.setAutomine(true);
    await setFault("none");

    await runIndexer();
    expect(await timesSent(txHash)).toBe(2);
    const settled = await indexUntil(quoteId, (q) => q.status === "settled");
    expect(settled.settlement?.txHash).toBe(txHash);
  });

  it("fails a transaction whose nonce another transaction took", async () => {
    const { quoteId, signature } = await signedQuote();
    await testClient.setAutomine(false);
    const res = await submit({ quoteId, signature });
    const txHash = res.body.txHash as Hex;
    const { nonce } = await chainClient.getTransaction({ hash: txHash });
    await testClient.dropTransaction({ hash: txHash });
    // Someone else with the keeper's key spends the nonce.
    const replacement = await KEEPER.signTransaction({
      chainId: EVM.chainId,
      nonce,
      to: KEEPER.address,
      value: 0n,
      gas: 21_000n,
      maxFeePerGas: 10_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
    });
    await chainClient.request({ method: "eth_sendRawTransaction", params: [replacement] });
    await testClient.mine({ blocks: 1 });

    const failed = await indexUntil(quoteId, (q) => q.status === "failed");
    expect(failed.status).toBe("failed");
    expect(failed.timeline.at(-1)).toMatchObject({ event: "failed", detail: { reason: "relay:dropped", txHash } });
    expect(await getExecution(String(res.body.executionId))).toMatchObject({
      status: "failed",
      reason: "relay:dropped",
    });
  });
});
