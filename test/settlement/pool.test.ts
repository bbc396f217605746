import { env, evictDurableObject, runDurableObjectAlarm } from "cloudflare:test";
import { type Address, type Hex, keccak256, parseEther } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import { localKeeperPool } from "../../scripts/lib/evm-deploy";
import type { PendingTx } from "../../src/keeper/pending";
import type { SubmitOutcome } from "../../src/keeper/rpc";
import type { Quote } from "../../src/schemas/quote";
import {
  chainClient,
  crashAtBroadcast,
  fundedResolver,
  getExecution,
  getQuote,
  newTaker,
  releaseSends,
  seedQuote,
  sentThroughProxy,
  signQuote,
  testClient,
} from "./helpers";

/**
 * A keeper with a pool of wallets (docs/settlement.md, "The wallet pool") on anvil with the real
 * contracts: concurrent submissions spread over the wallets, each fill is broadcast once by one wallet,
 * and a restarted keeper recovers each wallet's stored transaction without a second broadcast.
 *
 * These tests run in the `settlement-pool` project (vitest.config.ts): its anvil is its own, and its
 * keeper's secret holds the local pool's keys, as a local deployment's does, so a restarted object reads
 * them from its bindings before its alarm runs, as it would in production.
 */
const POOL: Address[] = localKeeperPool();

const poolKeeper = (name: string) => env.CHAIN_KEEPER.get(env.CHAIN_KEEPER.idFromName(name));

type KeeperStub = ReturnType<typeof poolKeeper>;

/** Signed quotes, one after another (the deployer mints each taker's tokens with its own nonces). */
async function signedQuotes(count: number) {
  const quotes = [];
  for (let i = 0; i < count; i++) quotes.push(await signedQuote(i));
  return quotes;
}

async function signedQuote(i: number) {
  const taker = await newTaker();
  const { quoteId, typedData } = await seedQuote({ taker: taker.address, resolver: fundedResolver((i % 4) as 0) });
  return { quoteId, takerPart: { signature: await signQuote(taker, typedData) }, permit: null, idempotencyKey: null };
}

const timesSent = async (hash: string) =>
  (await sentThroughProxy()).filter((raw) => keccak256(raw as Hex) === hash).length;

/** Alarm passes (the indexer) until every quote is settled. */
async function settleAll(stub: KeeperStub, quoteIds: string[]): Promise<Quote[]> {
  for (let pass = 0; ; pass++) {
    await runDurableObjectAlarm(stub);
    const quotes = await Promise.all(quoteIds.map(getQuote));
    if (quotes.every((q) => q.status === "settled") || pass >= 8) return quotes;
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  for (const address of POOL) await testClient.setBalance({ address, value: parseEther("100") });
});

describe("a keeper with a pool of wallets", () => {
  it("spreads concurrent submissions over its wallets and broadcasts each fill once", async () => {
    const stub = poolKeeper("pool-spread");
    const requests = await signedQuotes(2 * POOL.length);
    const sentBefore = (await sentThroughProxy()).length;

    const outcomes: SubmitOutcome[] = await Promise.all(requests.map((r) => stub.submit(r)));

    const hashes = outcomes.map((o) => (o.kind === "submitted" ? o.txHash : `not submitted: ${JSON.stringify(o)}`));
    expect(outcomes.map((o) => o.kind)).toEqual(Array(requests.length).fill("submitted"));
    expect(new Set(hashes).size).toBe(requests.length);
    expect((await sentThroughProxy()).length - sentBefore).toBe(requests.length);
    for (const hash of hashes) expect(await timesSent(hash)).toBe(1);
    const txs = await Promise.all(hashes.map((hash) => chainClient.getTransaction({ hash: hash as Hex })));
    const senders = txs.map((tx) => tx.from.toLowerCase());
    // Twice as many submissions at once as wallets: each wallet sends two, with its own nonces.
    expect(new Set(senders)).toEqual(new Set(POOL.map((a) => a.toLowerCase())));
    for (const wallet of new Set(senders)) expect(senders.filter((s) => s === wallet)).toHaveLength(2);

    const quotes = await settleAll(
      stub,
      requests.map((r) => r.quoteId),
    );
    for (const [i, quote] of quotes.entries()) {
      expect(quote.status).toBe("settled");
      expect(quote.settlement?.txHash).toBe(hashes[i]);
      expect(quote.executions).toHaveLength(1);
      expect((quote.executions[0]?.submitter ?? "").toLowerCase()).toBe(senders[i]);
    }
    const timings = outcomes.map((o) => (o.kind === "submitted" ? o.timings : undefined));
    for (const t of timings) expect(t).toMatchObject({ signMs: expect.any(Number), broadcastMs: expect.any(Number) });
  });

  it("after a restart, recovers each wallet's stored transaction and broadcasts each once", async () => {
    const stubOf = () => poolKeeper("pool-restart");
    const requests = await signedQuotes(POOL.length);
    // Each submission signed and stored by its wallet, none broadcast: what a crash leaves.
    const pending = await crashAtBroadcast(requests, stubOf);
    const stub = stubOf();
    expect(new Set(pending.map((tx) => tx.keeper))).toEqual(new Set(POOL));
    for (const tx of pending) expect(await timesSent(tx.hash)).toBe(0);

    await releaseSends();
    await evictDurableObject(stub);
    const quotes = await settleAll(
      stub,
      requests.map((r) => r.quoteId),
    );

    for (const [i, quote] of quotes.entries()) {
      const tx = pending[i] as PendingTx;
      expect(quote.status).toBe("settled");
      expect(quote.settlement?.txHash).toBe(tx.hash);
      expect(await timesSent(tx.hash)).toBe(1);
      expect(await getExecution(tx.submission.executionId)).toMatchObject({ submitter: tx.keeper, txHash: tx.hash });
      const mined = await chainClient.getTransaction({ hash: tx.hash as Hex });
      expect(mined.from.toLowerCase()).toBe(tx.keeper.toLowerCase());
      expect(mined.nonce).toBe(tx.nonce);
    }
  });
});
