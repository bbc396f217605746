import { env } from "cloudflare:test";
import type { Address, Hex, LocalAccount } from "viem";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { permit2Abi } from "../../src/chains/evm/abi/permit2";
import { limitTakerTypedData } from "../../src/chains/evm/limit-typed-data";
import { localConfig } from "../../src/config/local";
import { primaryEvmChain } from "../../src/config/record";
import { corridorStub } from "../../src/objects";
import type { LimitRound } from "../../src/types";
import { type Bidder, bidder, marketSellAmount } from "../support/bidder";
import { evmCorridorKey } from "../support/ws-client";
import { app, balanceOf, chainClient, EVM, getQuote, indexUntil, keeper, newTaker, testClient } from "./helpers";
import { signedOrder } from "./limit-orders";

/**
 * A limit order's round settled through the reactor (docs/limit-orders.md, "The keeper's job"): the
 * corridor auctions the signed order, the winner signs a LimitFill, and the keeper's `executeLimit`
 * moves the money, read back by the indexer from the reactor's `LimitFilled` event.
 */

const chain = primaryEvmChain(localConfig);
const reactor = chain.reactor as Address;

let sellAmount = 0n;
let node: Bidder | null = null;
beforeAll(async () => {
  sellAmount = BigInt(await marketSellAmount((path) => app.request(path, {}, env)));
});
afterEach(() => {
  node?.socket.close();
  node = null;
});

/** One round on the EVM corridor, alpha bidding `outputAmount`. */
async function runRound(taker: LocalAccount, round: LimitRound, outputAmount: bigint) {
  node = await bidder(0, "alpha");
  const pending = corridorStub(env, evmCorridorKey).requestQuote({
    chainId: chain.chainId,
    sellToken: EVM.cngn,
    buyToken: EVM.usdc,
    sellAmount: sellAmount.toString(),
    taker: taker.address,
    recipient: taker.address,
    requestedAt: Date.now(),
    limit: round,
  });
  const rfq = await node.nextRfq();
  expect(rfq.limit).toEqual({ limitOrderId: round.limitOrderId, minOut: round.minOut, limitAmount: round.limitAmount });
  await node.bid(rfq, outputAmount);
  return pending;
}

const nonceSpent = async (owner: Address, nonce: bigint) => {
  const bitmap = await chainClient.readContract({
    address: EVM.permit2,
    abi: permit2Abi,
    functionName: "nonceBitmap",
    args: [owner, nonce >> 8n],
  });
  return ((bitmap >> (nonce & 255n)) & 1n) === 1n;
};

describe("a limit order's round through the reactor", () => {
  it("fills the order when the best bid meets minOut: executeLimit, LimitFilled, settled to final", async () => {
    const taker = await newTaker();
    const { nonce, signature, round } = await signedOrder(taker, sellAmount, 900_000n);
    const outcome = await runRound(taker, round, 1_000_000n);
    if (outcome.kind !== "quoted") throw new Error(`no quote: ${JSON.stringify(outcome)}`);
    const { quoteId, received } = outcome.quote;
    // 1 USDC out, less the 10 bps fee and the 0.05 USDC gas fee.
    expect(received).toBe("949000");
    const before = { cngn: await balanceOf(EVM.cngn, taker.address), usdc: await balanceOf(EVM.usdc, taker.address) };

    const submitted = await keeper().submit({
      quoteId,
      takerPart: { signature: signature as Hex },
      permit: null,
      idempotencyKey: null,
    });
    expect(submitted).toMatchObject({ kind: "submitted", quoteId });
    const settled = await indexUntil(quoteId, (q) => q.status === "settled");
    expect(settled).toMatchObject({ settlement: { proceeds: sellAmount.toString() } });
    // One block on top of the settlement's makes it final (finalityConfirmations 2).
    await testClient.mine({ blocks: 1 });
    const final = await indexUntil(quoteId, (q) => q.final);
    expect(final).toMatchObject({ status: "settled", final: true });
    expect(final.fills).toEqual([
      expect.objectContaining({ resolver: node?.account.address, logIndex: expect.any(Number) }),
    ]);
    expect(await balanceOf(EVM.cngn, taker.address)).toBe(before.cngn - sellAmount);
    expect(await balanceOf(EVM.usdc, taker.address)).toBe(before.usdc + 949_000n);
    expect(await nonceSpent(taker.address, nonce)).toBe(true);
  });

  it("quotes nothing, and moves nothing, when the best bid gives less than minOut", async () => {
    const taker = await newTaker();
    const { nonce, round } = await signedOrder(taker, sellAmount, 960_000n);
    const outcome = await runRound(taker, round, 1_000_000n);
    expect(outcome).toMatchObject({ kind: "refused", code: "below_limit", extras: { bestReceived: "949000" } });
    expect(await nonceSpent(taker.address, nonce)).toBe(false);
  });

  it("refuses a signature that is not the taker's over the order", async () => {
    const taker = await newTaker();
    const { round } = await signedOrder(taker, sellAmount, 900_000n);
    const outcome = await runRound(taker, round, 1_000_000n);
    if (outcome.kind !== "quoted") throw new Error("no quote");
    const other = await newTaker();
    const forged = await other.signTypedData(
      limitTakerTypedData({
        chainId: chain.chainId,
        permit2: EVM.permit2,
        reactor,
        nonce: BigInt(round.nonce),
        order: (await signedOrder(taker, sellAmount, 900_000n)).order,
      }),
    );
    const answer = await keeper().submit({
      quoteId: outcome.quote.quoteId,
      takerPart: { signature: forged },
      permit: null,
      idempotencyKey: null,
    });
    expect(answer).toMatchObject({ kind: "refused", status: 400, code: "bad_signature" });
    expect((await getQuote(outcome.quote.quoteId)).status).toBe("quoted");
  });
});
