import { runInDurableObject } from "cloudflare:test";
import { type Hex, keccak256 } from "viem";
import { afterEach, describe, expect, it } from "vitest";
import type { ChainKeeperDO } from "../../durable-objects/chain-keeper";
import { rfqExecutorAbi } from "../../src/chains/evm/abi/rfq-executor";
import { quoteIdToBytes32 } from "../../src/chains/evm/typed-data";
import {
  type Answer,
  balanceOf,
  chainClient,
  chainKeeper,
  EVM,
  fundedResolver,
  getExecution,
  heldSends,
  indexUntil,
  newTaker,
  releaseSends,
  runIndexer,
  seedQuote,
  sentThroughProxy,
  setFault,
  signQuote,
  submit,
} from "./helpers";

/**
 * The keeper object reset while submissions with Idempotency-Keys are in flight, as a deploy's new code or
 * an eviction resets it, the Worker and the chain running on (docs/settlement.md, "not_leader" and
 * "Idempotency-Key"; `npm run chaos` does the same to the whole process). Every submission's transaction
 * is on chain, its broadcast's answer held at the keeper's RPC (one wallet broadcasts side by side). Every
 * taker is told to submit again, every key then answers one execution, and the chain agrees. The reset is
 * `ctx.abort()` run in the object: `evictDurableObject` waits for requests in flight to finish first.
 */

afterEach(async () => {
  await releaseSends();
  await setFault("none");
});

/** Submits until the answer is not 503 `not_leader`, running the indexer between (a restarted wallet recovers first). */
async function submitUntilAnswered(body: Record<string, unknown>, key: string): Promise<Answer> {
  for (let tries = 0; ; tries++) {
    const answer = await submit(body, { "Idempotency-Key": key });
    if (answer.status !== 503 || tries >= 10) return answer;
    await runIndexer();
  }
}

describe("the keeper reset mid-submission", () => {
  it("answers every key with its one execution once asked again, fills each quote once, and the chain agrees", async () => {
    const swaps = [];
    for (const i of [0, 1, 2, 3] as const) {
      const taker = await newTaker();
      const { quoteId, quote, typedData } = await seedQuote({ taker: taker.address, resolver: fundedResolver(i) });
      const body = { quoteId, signature: await signQuote(taker, typedData) };
      swaps.push({ taker, quote, body, key: `reset-${i}` });
    }
    const before = await Promise.all(swaps.map((s) => balanceOf(EVM.cngn, s.taker.address)));
    const fromBlock = await chainClient.getBlockNumber();

    // The proxy's record of what was sent runs over the whole project: this test's sends are the ones after it.
    const sentBefore = (await sentThroughProxy()).length;
    await setFault("hold-send-answers");
    const inFlight = swaps.map((s) => submit(s.body, { "Idempotency-Key": s.key }));
    for (let i = 0; i < 100 && (await heldSends()) < swaps.length; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await heldSends()).toBe(swaps.length);
    const heldHashes = (await sentThroughProxy()).slice(sentBefore).map((raw) => keccak256(raw as Hex));
    // The chain's keeper, which holds the broadcasts, is reset: the leader answers for it.
    await runInDurableObject(chainKeeper(), (_: ChainKeeperDO, state) => state.abort("reset mid-submission")).catch(
      () => {},
    );

    // Every taker is told to submit again with its key: none a 500, none a refusal.
    for (const answer of await Promise.all(inFlight)) {
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject({ error: "not_leader", reason: "keeper_restarted", retryAfter: 2 });
      expect(answer.headers.get("retry-after")).toBe("2");
    }
    await releaseSends();

    // Each key asked again first while the keeper's RPC is down: the woken keeper arms its indexer at once,
    // and a pass that confirmed a held broadcast before its key was asked would answer it from D1,
    // settled already, not from the keeper's storage.
    await setFault("down");
    const asked = [];
    for (const s of swaps) asked.push(await submit(s.body, { "Idempotency-Key": s.key }));
    await setFault("none");
    const answers = [];
    for (const [i, s] of swaps.entries()) {
      const answer = asked[i];
      answers.push(answer && answer.status !== 503 ? answer : await submitUntilAnswered(s.body, s.key));
    }
    // Each broadcast reached the chain: each key is answered from the keeper's storage, none runs anew.
    for (const answer of answers) {
      expect(answer).toMatchObject({ status: 200, body: { status: "submitted", duplicate: true } });
    }
    expect(answers.map((a) => a.body.txHash).sort()).toEqual([...heldHashes].sort());

    for (const [i, s] of swaps.entries()) {
      const executionId = answers[i]?.body.executionId as string;
      const settled = await indexUntil(s.quote.quoteId, (q) => q.status === "settled", 20);
      expect(settled.executions).toHaveLength(1);
      expect(settled.executions[0]?.executionId).toBe(executionId);
      expect((await getExecution(executionId)).status).toBe("settled");
      // Asked once more, the key answers the same execution, as it stands now.
      const again = await submit(s.body, { "Idempotency-Key": s.key });
      expect(again).toMatchObject({ status: 200, body: { executionId, duplicate: true, status: "settled" } });
      // The chain moved the taker's cNGN once.
      expect(await balanceOf(EVM.cngn, s.taker.address)).toBe((before[i] ?? 0n) - BigInt(s.quote.takerPays));
    }

    // One RfqFilled per quote, each in the transaction the relay settled it with; nothing sent twice.
    const fills = await chainClient.getContractEvents({
      address: EVM.executor,
      abi: rfqExecutorAbi,
      eventName: "RfqFilled",
      fromBlock,
    });
    for (const s of swaps) {
      const ours = fills.filter((f) => f.args.quoteId === quoteIdToBytes32(s.quote.quoteId));
      expect(ours).toHaveLength(1);
      const settled = await indexUntil(s.quote.quoteId, (q) => q.status === "settled", 0);
      expect(ours[0]?.transactionHash).toBe(settled.settlement?.txHash);
    }
    const hashes = (await sentThroughProxy()).map((raw) => keccak256(raw as Hex));
    for (const held of heldHashes) expect(hashes.filter((h) => h === held)).toHaveLength(1);
  });
});
