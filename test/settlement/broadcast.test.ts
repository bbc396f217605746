import { type Hex, keccak256, parseEther, parseTransaction } from "viem";
import { afterEach, describe, expect, it } from "vitest";
import { rfqExecutorAbi } from "../../src/chains/evm/abi/rfq-executor";
import {
  chainClient,
  deployer,
  EVM,
  fundedResolver,
  getQuote,
  KEEPER,
  keeperNonce,
  newTaker,
  pendingTxs,
  runIndexer,
  seedQuote,
  sentThroughProxy,
  setFault,
  signQuote,
  submit,
  testClient,
} from "./helpers";

/** When the keeper cannot broadcast, or does not hear back: what it answers and what it keeps. */

async function signedQuote(resolver: 0 | 1 | 2 | 3 = 0) {
  const taker = await newTaker();
  const { quoteId, typedData } = await seedQuote({ taker: taker.address, resolver: fundedResolver(resolver) });
  return { quoteId, signature: await signQuote(taker, typedData) };
}

afterEach(async () => {
  await setFault("none");
  await testClient.setBalance({ address: KEEPER.address, value: parseEther("10000") });
  // Whatever a test left in flight is confirmed, so the next one starts with a keeper that takes submissions.
  await runIndexer();
});

describe("broadcasting", () => {
  it("answers 503 not_leader when the keeper cannot pay the gas: nothing moved, the quote open, the nonce free", async () => {
    const { quoteId, signature } = await signedQuote();
    const nonce = await keeperNonce();
    await testClient.setBalance({ address: KEEPER.address, value: 0n });

    const res = await submit({ quoteId, signature });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ error: "not_leader", reason: "keeper_insufficient_funds" });
    expect(res.headers.get("Retry-After")).toBe("2");
    const quote = await getQuote(quoteId);
    // A refused submission leaves the quote exactly as it was.
    expect(quote.status).toBe("quoted");
    expect(quote.executions).toEqual([]);
    expect(quote.timeline.map((t) => t.event)).toEqual(["requested", "quoted"]);
    expect((await pendingTxs()).filter((tx) => tx.submission.quoteId === quoteId)).toEqual([]);

    await testClient.setBalance({ address: KEEPER.address, value: parseEther("10000") });
    const retry = await submit({ quoteId, signature });
    expect(retry.status).toBe(202);
    const tx = await chainClient.getTransaction({ hash: retry.body.txHash as Hex });
    expect(tx.nonce).toBe(nonce);
    await runIndexer();
    expect((await getQuote(quoteId)).status).toBe("settled");
  });

  it("fills the nonce of a refused broadcast that a later one waits on: the later fill lands, the refused quote can be sent again", async () => {
    const quotes = [await signedQuote(0), await signedQuote(1)];
    const nonce = await keeperNonce();
    const sentBefore = (await sentThroughProxy()).length;
    await setFault("refuse-first-of-two");

    // Both are signed, nonce and nonce + 1, and broadcast side by side; the proxy refuses the first nonce.
    const answers = await Promise.all(quotes.map((q) => submit(q)));
    expect(answers.map((a) => a.status).sort()).toEqual([202, 503]);
    const refused = answers.findIndex((a) => a.status === 503);
    const [lost, landed] = [quotes[refused], quotes[1 - refused]] as [(typeof quotes)[0], (typeof quotes)[0]];
    expect(answers[refused]?.body).toMatchObject({ error: "broadcast_failed" });
    const later = await chainClient.getTransaction({ hash: answers[1 - refused]?.body.txHash as Hex });
    expect(later.nonce).toBe(nonce + 1);

    // The keeper's transfer of nothing to itself took the refused nonce, so the later fill could land.
    const filler = (await sentThroughProxy())
      .slice(sentBefore)
      .map((raw) => ({ raw, tx: parseTransaction(raw as Hex) }))
      .find(({ tx }) => tx.nonce === nonce);
    expect(filler?.tx).toMatchObject({ to: KEEPER.address.toLowerCase(), gas: 21_000n });
    const receipt = await chainClient.waitForTransactionReceipt({ hash: keccak256(filler?.raw as Hex) });
    expect(receipt).toMatchObject({ status: "success", from: KEEPER.address.toLowerCase() });
    await runIndexer();
    expect((await getQuote(landed.quoteId)).status).toBe("settled");
    expect(await keeperNonce()).toBe(nonce + 2);

    expect((await getQuote(lost.quoteId)).status).toBe("quoted");
    const again = await submit(lost);
    expect(again.status).toBe(202);
    expect((await chainClient.getTransaction({ hash: again.body.txHash as Hex })).nonce).toBe(nonce + 2);
    await runIndexer();
    expect((await getQuote(lost.quoteId)).status).toBe("settled");
  });

  it("stands by a broadcast whose answer was lost: 202, no new broadcast until the indexer has confirmed it", async () => {
    const first = await signedQuote(1);
    const second = await signedQuote(2);
    // The keeper's RPC stays down after the lost answer, so the indexer's own alarm (a second later, or
    // sooner than the second submission under load) cannot confirm the first before the test lets it.
    await setFault("lose-send-answer-then-down");

    const res = await submit(first);
    const meanwhile = await submit(second);
    expect(res.status).toBe(202);
    const txHash = res.body.txHash as Hex;
    expect(meanwhile.status).toBe(503);
    expect(meanwhile.body).toMatchObject({ error: "not_leader", reason: "recovering", retryAfter: 2 });
    expect(meanwhile.headers.get("Retry-After")).toBe("2");
    expect((await getQuote(first.quoteId)).status).toBe("submitted");

    await setFault("none");
    await runIndexer();
    expect((await getQuote(first.quoteId)).status).toBe("settled");
    // The chain had it all along: it was found, not broadcast again.
    const sent = (await sentThroughProxy()).filter((raw) => keccak256(raw as Hex) === txHash);
    expect(sent).toHaveLength(1);
    expect((await submit(second)).status).toBe(202);
  });

  it("answers 503 not_leader rpc_unavailable when the chain does not answer, and records nothing", async () => {
    const { quoteId, signature } = await signedQuote(3);
    await setFault("down");
    const res = await submit({ quoteId, signature });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ error: "not_leader", reason: "rpc_unavailable", retryAfter: 2 });
    expect((await getQuote(quoteId)).executions).toEqual([]);
    expect((await pendingTxs()).filter((tx) => tx.submission.quoteId === quoteId)).toEqual([]);

    await setFault("none");
    expect((await submit({ quoteId, signature })).status).toBe(202);
  });

  it("answers 503 not_leader keeper_not_allowed when the executor does not accept the keeper", async () => {
    const { quoteId, signature } = await signedQuote(0);
    const setKeeper = async (allowed: boolean) =>
      chainClient.waitForTransactionReceipt({
        hash: await deployer.writeContract({
          address: EVM.executor,
          abi: rfqExecutorAbi,
          functionName: "setKeeper",
          args: [KEEPER.address, allowed],
        }),
      });
    await setKeeper(false);
    try {
      const res = await submit({ quoteId, signature });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ error: "not_leader", reason: "keeper_not_allowed" });
      expect((await getQuote(quoteId)).status).toBe("quoted");
    } finally {
      await setKeeper(true);
    }
    expect((await submit({ quoteId, signature })).status).toBe(202);
  });
});
