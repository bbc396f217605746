import { env } from "cloudflare:test";
import { erc20Abi, type Hex, type LocalAccount, type PrivateKeyAccount, parseGwei } from "viem";
import { afterEach, describe, expect, it } from "vitest";
import { permit2Abi } from "../../src/chains/evm/abi/permit2";
import { readResolver, upsertRegistration } from "../../src/db/resolvers";
import type { CorridorRecord } from "../../src/schemas/ops";
import type { ResolverStanding } from "../../src/schemas/resolvers";
import { evmCorridorKey } from "../support/ws-client";
import { refusingWallet, sendDelegation } from "./delegation";
import {
  app,
  balanceOf,
  chainClient,
  EVM,
  getExecution,
  indexUntil,
  newResolver,
  newTaker,
  seedQuote,
  signQuote,
  submit,
  testClient,
  walletOf,
} from "./helpers";

/**
 * A taker that moves first after the keeper simulated its fill (docs/settlement.md, "Attribution after
 * broadcast"): the keeper's transaction is waiting for a block when the taker sends its own with a higher
 * tip, which the block orders first. The fill reverts; its replay on the block before passes, so it is
 * replayed on its block, which shows the taker's move: a `taker:` reason, nobody struck, and the winner's
 * fill rate (settled over settled and its own failures) as it was, the failure listed as never counted.
 */

afterEach(async () => {
  await testClient.setAutomine(true);
});

const record = async (address: string) =>
  (await (await app.request(`/v1/resolvers/${address}`, {}, env)).json()) as ResolverStanding;

/** A registered resolver with one settled fill of its own: its fill rate 1 over 1 sample. */
async function resolverWithOneFill(): Promise<LocalAccount> {
  const resolver = await newResolver();
  await upsertRegistration(env.DB, resolver.address, { name: "honest" }, new Date().toISOString());
  const taker = await newTaker();
  const { quoteId, typedData } = await seedQuote({ taker: taker.address, resolver });
  expect((await submit({ quoteId, signature: await signQuote(taker, typedData) })).status).toBe(202);
  expect((await indexUntil(quoteId, (q) => q.status === "settled")).status).toBe("settled");
  expect((await record(resolver.address)).reliabilityDetail?.fill).toEqual({ rate: 1, samples: 1 });
  return resolver;
}

/** What the taker sends to move first: its transaction, at `tip`. */
type Move = (taker: LocalAccount, signed: { nonce: bigint; takerPays: bigint }, tip: bigint) => Promise<Hex>;

/**
 * The taker's fill broadcast while blocks wait, then `move` sent by the taker with a tip far above the
 * keeper's, then one block with both: the taker's transaction first, the keeper's reverted after it.
 */
async function frontRun(resolver: LocalAccount, move: Move) {
  const taker = await newTaker();
  const { quoteId, quote, typedData } = await seedQuote({ taker: taker.address, resolver });
  const signature = await signQuote(taker, typedData);
  const nonce = BigInt((typedData.message as { nonce: string }).nonce);
  await testClient.setAutomine(false);
  const sent = await submit({ quoteId, signature });
  expect(sent.status).toBe(202);
  const moved = await move(taker, { nonce, takerPays: BigInt(quote.takerPays) }, parseGwei("50"));
  await testClient.mine({ blocks: 1 });
  await testClient.setAutomine(true);
  const theirs = await chainClient.getTransactionReceipt({ hash: moved });
  const fill = await chainClient.getTransactionReceipt({ hash: sent.body.txHash as Hex });
  expect(theirs).toMatchObject({ status: "success", blockNumber: fill.blockNumber });
  expect(fill.status).toBe("reverted");
  expect(theirs.transactionIndex).toBeLessThan(fill.transactionIndex);
  expect((await indexUntil(quoteId, (q) => q.status === "failed")).status).toBe("failed");
  return String(sent.body.executionId);
}

const corridor = async () =>
  ((await (await app.request("/v1/corridors", {}, env)).json()) as { corridors: CorridorRecord[] }).corridors.find(
    (c) => c.key === evmCorridorKey,
  );

/** The winner as it was: no strike, its fill rate and samples unchanged, the failure listed as never counted. */
async function expectNotCounted(resolver: LocalAccount, executionId: string, reason: string) {
  expect(await getExecution(executionId)).toMatchObject({ status: "failed", reason, blame: "taker" });
  expect((await readResolver(env.DB, resolver.address))?.demotions).toBe(0);
  const after = await record(resolver.address);
  expect(after.reliabilityDetail?.fill).toEqual({ rate: 1, samples: 1 });
  expect(after.notCounted).toEqual([
    expect.objectContaining({ executionId, status: "failed", reason, blame: "taker" }),
  ]);
  // Nor is it the relay's: the corridor is not degraded by it.
  expect((await corridor())?.degraded ?? "").not.toMatch(/^relay:/);
}

/**
 * A tip above the keeper's, and a gas limit of its own: an estimate would run on the pending block, after
 * the keeper's fill, and come out too low for the same call made before it.
 */
const fees = (tip: bigint) => ({ maxPriorityFeePerGas: tip, maxFeePerGas: tip * 2n, gas: 200_000n });

describe("a taker front-running its own fill in the fill's block", () => {
  it("by spending its Permit2 nonce: taker:nonce_used, no strike, the winner's fill rate unchanged", async () => {
    const resolver = await resolverWithOneFill();
    const executionId = await frontRun(resolver, (taker, { nonce }, tip) =>
      walletOf(taker).writeContract({
        address: EVM.permit2,
        abi: permit2Abi,
        functionName: "invalidateUnorderedNonces",
        args: [nonce >> 8n, 1n << (nonce & 255n)],
        ...fees(tip),
      }),
    );
    await expectNotCounted(resolver, executionId, "taker:nonce_used");
  });

  it("by moving its tokens away: taker:insufficient_balance, no strike, the winner's fill rate unchanged", async () => {
    const resolver = await resolverWithOneFill();
    const elsewhere = await newTaker();
    const executionId = await frontRun(resolver, async (taker, _signed, tip) =>
      walletOf(taker).writeContract({
        address: EVM.cngn,
        abi: erc20Abi,
        functionName: "transfer",
        args: [elsewhere.address, await balanceOf(EVM.cngn, taker.address)],
        ...fees(tip),
      }),
    );
    await expectNotCounted(resolver, executionId, "taker:insufficient_balance");
  });

  it("by withdrawing Permit2's allowance: taker:insufficient_allowance, no strike, the winner's fill rate unchanged", async () => {
    const resolver = await resolverWithOneFill();
    const executionId = await frontRun(resolver, (taker, _signed, tip) =>
      walletOf(taker).writeContract({
        address: EVM.cngn,
        abi: erc20Abi,
        functionName: "approve",
        args: [EVM.permit2, 0n],
        ...fees(tip),
      }),
    );
    await expectNotCounted(resolver, executionId, "taker:insufficient_allowance");
  });

  it("by delegating its account by EIP-7702 to code that refuses its signature: taker:bad_signature, no strike", async () => {
    const resolver = await resolverWithOneFill();
    // Deployed while blocks are mined: deployed by the first delegation, inside frontRun while blocks wait,
    // it would wait for its receipt for good, unless an earlier file of the worker had deployed it.
    await refusingWallet();
    const executionId = await frontRun(resolver, (taker, _signed, tip) =>
      sendDelegation(taker as PrivateKeyAccount, tip),
    );
    await expectNotCounted(resolver, executionId, "taker:bad_signature");
  });
});
