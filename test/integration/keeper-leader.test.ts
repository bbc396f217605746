import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { allCorridors, corridorTag } from "../../src/chains/corridor-keys";
import type { ChainConfig } from "../../src/config";
import { localConfig } from "../../src/config/local";
import { newId, tagOf } from "../../src/ids";
import { Leader } from "../../src/keeper/leader";
import type { ChainKeeperRpc, RoutedSubmission, SubmitOutcome, SubmitRequest } from "../../src/keeper/rpc";
import type { Pause } from "../../src/schemas";
import { MemoryKeyBook } from "../support/fake-key-book";
import { seedQuote } from "../support/records";

/**
 * The keeper leader (src/keeper/leader.ts; docs/architecture.md, "The keeper"): each submission handed to
 * the keeper of its quote's chain with the leader's decision, over the real local D1 and fake chains'
 * keepers that record what they were handed.
 */

const [evm, solana] = localConfig.chains as [ChainConfig, ChainConfig];
const corridorOn = (chainId: number) => {
  const corridor = allCorridors(localConfig).find((c) => c.chain.chainId === chainId);
  if (!corridor) throw new Error(`no corridor on chain ${chainId}`);
  return corridor.key;
};
const quoteOn = (chainId: number) => newId("q", corridorTag(corridorOn(chainId)));

/** A chain's keeper that answers each submission once the test lets it (`release`). */
class HeldChainKeeper implements ChainKeeperRpc {
  readonly handed: RoutedSubmission[] = [];
  readonly writtenThrough: string[] = [];
  private readonly held: (() => void)[] = [];
  hold = false;
  /** What it answers instead of `submitted`, when set. */
  answer: SubmitOutcome | null = null;

  async submit(request: RoutedSubmission): Promise<SubmitOutcome> {
    this.handed.push(request);
    if (this.hold) await new Promise<void>((resolve) => this.held.push(resolve));
    if (this.answer) return this.answer;
    return {
      kind: "submitted",
      quoteId: request.quoteId,
      executionId: newId("x", tagOf(request.quoteId)),
      txHash: "0x1",
    };
  }

  async writeThrough(id: string): Promise<boolean> {
    this.writtenThrough.push(id);
    return true;
  }

  async status(chainId: number) {
    return { followed: chainId === evm?.chainId ? 2 : 1, addresses: [`0xwallet-${chainId}`] };
  }

  release(): void {
    for (const resolve of this.held.splice(0)) resolve();
  }
}

function leaderOf(options: { paused?: Pause | null; db?: D1Database } = {}) {
  const keepers = new Map([evm, solana].map((c) => [c.chainId, new HeldChainKeeper()]));
  const leader = new Leader({
    config: () => localConfig,
    db: options.db ?? env.DB,
    records: () => options.db ?? env.DB,
    chainKeeper: (chainId) => {
      const keeper = keepers.get(chainId);
      if (!keeper) throw new Error(`no keeper for chain ${chainId}`);
      return keeper;
    },
    paused: () => options.paused ?? null,
    keys: new MemoryKeyBook(),
    now: () => Date.now(),
  });
  const keeperOf = (chainId: number) => keepers.get(chainId) as HeldChainKeeper;
  return { leader, keeperOf };
}

const request = (quoteId: string, over: Partial<SubmitRequest> = {}): SubmitRequest => ({
  quoteId,
  takerPart: { signature: "0x00" },
  permit: null,
  idempotencyKey: null,
  ...over,
});

/** A D1 that fails any read: the leader must not need one. */
const noDb = new Proxy({} as D1Database, {
  get: () => () => {
    throw new Error("the leader read D1");
  },
});

describe("the keeper leader", () => {
  it("hands a submission to the keeper of the chain its quote id's tag names, reading nothing", async () => {
    const { leader, keeperOf } = leaderOf({ db: noDb });
    const [onEvm, onSolana] = [quoteOn(evm.chainId), quoteOn(solana.chainId)];
    expect(await leader.submit(request(onEvm))).toMatchObject({ kind: "submitted", quoteId: onEvm });
    expect(await leader.submit(request(onSolana))).toMatchObject({ kind: "submitted", quoteId: onSolana });
    expect(keeperOf(evm.chainId).handed.map((r) => r.quoteId)).toEqual([onEvm]);
    expect(keeperOf(solana.chainId).handed.map((r) => r.quoteId)).toEqual([onSolana]);
    expect(keeperOf(evm.chainId).handed[0]).toMatchObject({ paused: false });
  });

  it("hands over the operator's pause, for the chain's keeper to answer repeats and unknown quotes still", async () => {
    const pause = { reason: "maintenance", at: new Date().toISOString() };
    const { leader, keeperOf } = leaderOf({ paused: pause });
    await leader.submit(request(quoteOn(evm.chainId)));
    expect(keeperOf(evm.chainId).handed[0]).toMatchObject({ paused: true });
  });

  it("finds the chain of a quote whose tag names no corridor in D1, and answers 404 for one D1 does not have", async () => {
    const { leader, keeperOf } = leaderOf();
    const { quote } = await seedQuote(env.DB, { chainId: solana.chainId });
    expect(chainsTagged(quote.quoteId)).toBe(false);
    await leader.submit(request(quote.quoteId));
    expect(keeperOf(solana.chainId).handed.map((r) => r.quoteId)).toEqual([quote.quoteId]);

    expect(await leader.submit(request("q_00000000000000000000000000000000"))).toMatchObject({
      status: 404,
      code: "quote_not_found",
    });
    expect(keeperOf(evm.chainId).handed).toEqual([]);
  });

  it("runs one quote's submissions one at a time, while another chain's go on", async () => {
    const { leader, keeperOf } = leaderOf({ db: noDb });
    const held = keeperOf(evm.chainId);
    held.hold = true;
    const quoteId = quoteOn(evm.chainId);
    const first = leader.submit(request(quoteId));
    const repeat = leader.submit(request(quoteId));
    // The EVM chain's keeper holds its submission: a Solana submission is answered meanwhile.
    expect(await leader.submit(request(quoteOn(solana.chainId)))).toMatchObject({ kind: "submitted" });
    expect(held.handed).toHaveLength(1);
    held.release();
    await first;
    await new Promise((r) => setTimeout(r, 0));
    expect(held.handed).toHaveLength(2);
    held.release();
    await repeat;
  });

  it("runs one Idempotency-Key's submissions one at a time across chains", async () => {
    const { leader, keeperOf } = leaderOf({ db: noDb });
    keeperOf(evm.chainId).hold = true;
    const first = leader.submit(request(quoteOn(evm.chainId), { idempotencyKey: "k-1" }));
    const second = leader.submit(request(quoteOn(solana.chainId), { idempotencyKey: "k-1" }));
    await new Promise((r) => setTimeout(r, 10));
    expect(keeperOf(solana.chainId).handed).toEqual([]);
    keeperOf(evm.chainId).release();
    await first;
    await second;
    expect(keeperOf(solana.chainId).handed).toHaveLength(1);
  });

  it("hands a key's other quotes to the chain's keeper, and takes the key back when nothing was recorded", async () => {
    const { leader, keeperOf } = leaderOf({ db: noDb });
    const held = keeperOf(evm.chainId);
    const [a, b, c] = [quoteOn(evm.chainId), quoteOn(evm.chainId), quoteOn(evm.chainId)];
    await leader.submit(request(a, { idempotencyKey: "k-2" }));
    held.answer = { kind: "refused", status: 409, code: "idempotency_key_reused", message: "", extras: {} };
    await leader.submit(request(b, { idempotencyKey: "k-2" }));
    held.answer = null;
    await leader.submit(request(c, { idempotencyKey: "k-2" }));
    expect(held.handed.map((r) => r.keyTakenWith)).toEqual([undefined, [a], [a]]);
  });

  it("asks only the keeper of the chain an id's tag names to write through; one that cannot answer has nothing", async () => {
    const { leader, keeperOf } = leaderOf({ db: noDb });
    const executionId = newId("x", corridorTag(corridorOn(solana.chainId)));
    expect(await leader.writeThrough(executionId)).toBe(true);
    expect(keeperOf(solana.chainId).writtenThrough).toEqual([executionId]);
    expect(keeperOf(evm.chainId).writtenThrough).toEqual([]);
    expect(await leader.writeThrough("x_00000000000000000000000000000000")).toBe(false);

    keeperOf(solana.chainId).writeThrough = async () => {
      throw new Error("unreachable");
    };
    expect(await leader.writeThrough(executionId)).toBe(false);
  });

  it("reports its pause and, per chain, what that chain's keeper follows and signs with", async () => {
    const { leader } = leaderOf({ db: noDb });
    expect(await leader.status()).toEqual({
      paused: null,
      followed: 3,
      wallets: [
        { chainId: evm.chainId, wallets: 1, addresses: [`0xwallet-${evm.chainId}`] },
        { chainId: solana.chainId, wallets: 1, addresses: [`0xwallet-${solana.chainId}`] },
      ],
    });
  });
});

/** Whether a quote id's tag names a corridor of the local configuration. */
function chainsTagged(quoteId: string): boolean {
  return allCorridors(localConfig).some((c) => corridorTag(c.key) === tagOf(quoteId));
}
