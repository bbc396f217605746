import { env } from "cloudflare:test";
import { type Address, type Hex, hashTypedData } from "viem";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { fillTypedData, quoteIdToBytes32 } from "../../src/chains/evm/typed-data";
import { readTotals } from "../../src/db/resolver-days";
import { windowStart } from "../../src/resolvers/reliability";
import type { Quote } from "../../src/schemas/quote";
import { type Bidder, bidder, marketSellAmount, quoteBody } from "../support/bidder";
import { eventually } from "../support/ws-client";
import {
  app,
  balanceOf,
  chainClient,
  cngnPermit,
  EVM,
  getExecution,
  getQuote,
  KEEPER,
  newTaker,
  runIndexer,
  signQuote,
  submit,
  testClient,
} from "./helpers";

let sellAmount = "";
beforeAll(async () => {
  sellAmount = await marketSellAmount((path) => app.request(path, {}, env));
});

let open: Bidder[] = [];
afterEach(() => {
  for (const b of open) b.socket.close();
  open = [];
});

/** A node of anvil account 1 (funded and approved by the global setup), heartbeating and fresh. */
async function resolverNode(): Promise<Bidder> {
  const node = await bidder(0, "alpha");
  open.push(node);
  await eventually(async () => {
    const { nodes } = (await (await app.request("/v1/nodes", {}, env)).json()) as { nodes: { fresh: boolean }[] };
    expect(nodes.some((n) => n.fresh)).toBe(true);
  });
  return node;
}

/** Runs a real auction for `taker`, the node bidding 1 USDC; the quote and its typedData. */
async function auctionQuote(node: Bidder, taker: Address) {
  const pending = app.request(
    "/v1/quotes",
    {
      method: "POST",
      body: JSON.stringify(quoteBody({ sellAmount, taker })),
      headers: { "content-type": "application/json" },
    },
    env,
  );
  await node.bid(await node.nextRfq(), 1_000_000n);
  const res = await pending;
  expect(res.status).toBe(200);
  return (await res.json()) as Quote & { typedData: Record<string, unknown> };
}

describe("a quote from the auction to final, on a real chain", () => {
  it("is submitted, settles with its fill, and turns final at the finality depth", async () => {
    const node = await resolverNode();
    const taker = await newTaker();
    const quote = await auctionQuote(node, taker.address);
    const signature = await signQuote(taker, quote.typedData);
    const takerBefore = await balanceOf(EVM.cngn, taker.address);
    const usdcBefore = await balanceOf(EVM.usdc, taker.address);

    const res = await submit({ quoteId: quote.quoteId, signature }, { "Idempotency-Key": "first-try" });
    expect(res.status).toBe(202);
    const { executionId, txHash } = res.body as { executionId: string; txHash: Hex };
    expect(res.body).toEqual({ quoteId: quote.quoteId, executionId, status: "submitted", txHash });
    expect(await node.socket.next("execution")).toEqual({
      type: "execution",
      quoteId: quote.quoteId,
      status: "submitted",
      txHash,
    });
    const submitted = await getQuote(quote.quoteId);
    expect(submitted.status).toBe("submitted");
    expect(submitted.timeline.map((t) => t.event)).toEqual(["requested", "quoted", "signed", "submitted"]);
    expect(submitted.timeline.at(-1)?.detail).toEqual({ txHash });

    // anvil mines on each transaction: the receipt is there for the indexer's first pass.
    await runIndexer();
    const settled = await getQuote(quote.quoteId);
    const receipt = await chainClient.getTransactionReceipt({ hash: txHash });
    const block = Number(receipt.blockNumber);
    const { timestamp } = await chainClient.getBlock({ blockNumber: receipt.blockNumber });
    expect(settled.status).toBe("settled");
    expect(settled.final).toBe(false);
    expect(settled.settlement).toEqual({
      txHash,
      block,
      blockTime: new Date(Number(timestamp) * 1000).toISOString(),
      confirmed: false,
      confirmedAt: null,
      takerPays: quote.takerPays,
      proceeds: quote.proceeds,
      gasFee: { token: quote.gasFee.token, amount: quote.gasFee.amount },
      submitter: KEEPER.address,
    });
    // The fill's orderHash is the resolver's signed RfqFill digest.
    const orderHash = hashTypedData(
      fillTypedData({
        chainId: EVM.chainId,
        executor: EVM.executor,
        fill: {
          quoteId: quoteIdToBytes32(quote.quoteId),
          taker: taker.address,
          sellToken: EVM.cngn,
          sellAmount: BigInt(quote.sellAmount),
          buyToken: EVM.usdc,
          outputAmount: 1_000_000n,
          deadline: BigInt(quote.typedData.message ? (quote.typedData.message as { deadline: string }).deadline : 0),
        },
      }),
    );
    expect(settled.fills).toEqual([
      { orderHash, resolver: node.account.address, filler: KEEPER.address, logIndex: expect.any(Number) },
    ]);
    expect(settled.timeline.at(-1)).toMatchObject({ event: "settled", detail: { block } });
    expect(await node.socket.next("execution")).toMatchObject({ status: "settled", txHash });
    expect(takerBefore - (await balanceOf(EVM.cngn, taker.address))).toBe(BigInt(quote.takerPays));
    expect((await balanceOf(EVM.usdc, taker.address)) - usdcBefore).toBe(BigInt(quote.received));

    // finalityConfirmations is 2: one block on top of the settlement makes it final.
    await runIndexer();
    expect((await getQuote(quote.quoteId)).final).toBe(false);
    await testClient.mine({ blocks: 1 });
    await runIndexer();
    const final = await getQuote(quote.quoteId);
    expect(final.final).toBe(true);
    expect(final.settlement).toMatchObject({ confirmed: true, confirmedAt: expect.any(String) });
    expect(final.timeline.map((t) => t.event)).toEqual([
      "requested",
      "quoted",
      "signed",
      "submitted",
      "settled",
      "final",
    ]);

    const execution = await getExecution(executionId);
    expect(execution).toEqual({
      executionId,
      quoteId: quote.quoteId,
      status: "settled",
      reason: null,
      blame: null,
      txHash,
      submitter: KEEPER.address,
      gasUsed: receipt.gasUsed.toString(),
      resolver: node.account.address,
      proceeds: quote.proceeds,
      takerPays: quote.takerPays,
      // The keeper's books match the receipt: gas used × effective gas price, against what the quote charged
      // (the chain projects charge the configured fee, so no native price).
      keeper: {
        spent: (receipt.gasUsed * receipt.effectiveGasPrice).toString(),
        charged: { token: quote.gasFee.token, amount: quote.gasFee.amount },
        nativePrice: null,
      },
      updatedAt: expect.any(String),
      lifecycle: final,
    });
    expect(final.executions).toEqual([
      {
        executionId,
        status: "settled",
        reason: null,
        blame: null,
        txHash,
        submitter: KEEPER.address,
        gasUsed: receipt.gasUsed.toString(),
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    ]);

    // The same key again: the first execution, not a second fill.
    const again = await submit({ quoteId: quote.quoteId, signature }, { "Idempotency-Key": "first-try" });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({
      quoteId: quote.quoteId,
      executionId,
      status: "settled",
      txHash,
      reason: null,
      duplicate: true,
    });

    await eventually(async () =>
      expect((await readTotals(env.DB, windowStart(Date.now()))).get(node.account.address.toLowerCase())).toMatchObject(
        {
          asked: 1,
          answered: 1,
          won: 1,
          replies: 1,
          submitted: 1,
          settled: 1,
        },
      ),
    );
  });

  it("settles a taker who never approved Permit2 in one submission, with an EIP-2612 permit", async () => {
    const node = await resolverNode();
    const taker = await newTaker({ approvePermit2: false });
    const quote = await auctionQuote(node, taker.address);
    const signature = await signQuote(taker, quote.typedData);

    const unready = await submit({ quoteId: quote.quoteId, signature });
    expect(unready.status).toBe(400);
    expect(unready.body).toMatchObject({
      error: "taker_not_ready",
      reason: "permit2_not_approved",
      detail: expect.stringContaining("Permit2"),
    });
    expect((await getQuote(quote.quoteId)).status).toBe("quoted");

    const permit = await cngnPermit(taker);
    const res = await submit({ quoteId: quote.quoteId, signature, permit });
    expect(res.status).toBe(202);
    await runIndexer();
    const settled = await getQuote(quote.quoteId);
    expect(settled.status).toBe("settled");
    expect(settled.settlement?.txHash).toBe(res.body.txHash);
    expect(
      await chainClient.readContract({
        address: EVM.cngn,
        abi: [
          {
            type: "function",
            name: "allowance",
            stateMutability: "view",
            inputs: [{ type: "address" }, { type: "address" }],
            outputs: [{ type: "uint256" }],
          },
        ],
        functionName: "allowance",
        args: [taker.address, EVM.permit2],
      }),
    ).toBeGreaterThan(0n);
  });
});
