import { env } from "cloudflare:test";
import { type Hex, maxUint256, parseEther, zeroAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { rfqExecutorAbi } from "../../src/chains/evm/abi/rfq-executor";
import { parseSigning } from "../../src/chains/evm/stored-signing";
import { READ_EVERY_MS } from "../../src/nodes/inventory-checks";
import type { Quote } from "../../src/schemas/quote";
import type { Node } from "../../src/schemas/resolvers";
import { type Bidder, bidder, marketSellAmount, quoteBody, signBid } from "../support/bidder";
import { flipV, highS, vAsParity } from "../support/signature-variants";
import {
  authenticate,
  connect,
  eventually,
  getJson,
  heartbeat,
  type TestSocket,
  untilInventoryChecked,
} from "../support/ws-client";
import {
  app,
  approve,
  chainClient,
  deployer,
  EVM,
  fundedResolver,
  KEEPER,
  mint,
  newTaker,
  seedQuote,
  signQuote,
  submit,
  testClient,
  walletOf,
} from "./helpers";

/**
 * The relay refuses what the chain refuses (docs/api.md, "Signatures"): a bid or a taker's signature that
 * the executor would refuse, and a resolver whose address has code, whose signatures the chain would check
 * by that code (docs/resolver-protocol.md, "Inventory checked on chain"), against anvil and the project's
 * contracts.
 */

let sellAmount = "";
beforeAll(async () => {
  sellAmount = await marketSellAmount((path) => app.request(path, {}, env));
});

let open: TestSocket[] = [];
afterEach(async () => {
  for (const s of open) s.close();
  await Promise.all(open.map((s) => s.closed));
  open = [];
});

async function node(index: number, name: string): Promise<Bidder> {
  const n = await bidder(index, name);
  open.push(n.socket);
  return n;
}

const requestQuote = async () => {
  const res = await app.request(
    "/v1/quotes",
    {
      method: "POST",
      body: JSON.stringify(quoteBody({ sellAmount })),
      headers: { "content-type": "application/json" },
    },
    env,
  );
  return { status: res.status, body: (await res.json()) as Quote & Record<string, unknown> };
};

const nodeOf = async (address: string) =>
  (await getJson<{ nodes: Node[] }>("/v1/nodes")).body.nodes.find((n) => n.address === address);

describe("a bid whose signature has v flipped (27 ↔ 28)", () => {
  it("is refused by the relay (error bad_signature, counted rejected), as the executor refuses it", async () => {
    const honest = await node(0, "honest");
    const mallory = await node(1, "mallory");
    const pending = requestQuote();
    const [rh, rm] = await Promise.all([honest.nextRfq(), mallory.nextRfq()]);
    await honest.bid(rh, 990_000n);
    const flipped = flipV(await signBid(mallory.account, rm, 1_000_000n));
    mallory.socket.send({ type: "bid", rfqId: rm.rfqId, outputAmount: "1000000", signature: flipped });

    const { status, body } = await pending;
    expect(status).toBe(200);
    expect(body.resolver?.name).toBe("honest");
    expect(body.replies).toEqual({ valid: 1, rejected: 1, declined: 0, noReply: 0, late: 0 });
    expect(await mallory.socket.next("error")).toMatchObject({ code: "bad_signature" });

    // The chain: the same resolver's fill signature with v flipped reverts on the executor, the honest one does not.
    const taker = await newTaker();
    const { quote, typedData } = await seedQuote({ taker: taker.address, resolver: fundedResolver(1) });
    const { order, permit, bids } = parseSigning(quote.signing);
    const bid = bids[0] as (typeof bids)[number];
    const takerSignature = await signQuote(taker, typedData);
    const fill = (signature: Hex) =>
      chainClient.simulateContract({
        account: KEEPER,
        address: EVM.executor,
        abi: rfqExecutorAbi,
        functionName: "fill",
        args: [order, permit, taker.address, takerSignature, [{ ...bid, signature }]],
      });
    await expect(fill(bid.signature)).resolves.toBeDefined();
    await expect(fill(flipV(bid.signature))).rejects.toThrow(/InvalidResolverSignature/);
  });
});

describe("a taker's signature with v 0/1 or a high s", () => {
  it("is refused on submission with 400 bad_signature, as Permit2 refuses it on the executor", async () => {
    const taker = await newTaker();
    const { quoteId, quote, typedData } = await seedQuote({ taker: taker.address, resolver: fundedResolver(3) });
    const { order, permit, bids } = parseSigning(quote.signing);
    const bid = bids[0] as (typeof bids)[number];
    const signature = await signQuote(taker, typedData);
    const fill = (takerSignature: Hex) =>
      chainClient.simulateContract({
        account: KEEPER,
        address: EVM.executor,
        abi: rfqExecutorAbi,
        functionName: "fill",
        args: [order, permit, taker.address, takerSignature, [bid]],
      });
    const rules = [
      [vAsParity(signature), /its v is [01]: it must be 27 or 28/],
      [highS(signature), /its s is high .*low-s rule \(EIP-2\)/],
    ] as const;
    for (const [variant, rule] of rules) {
      const res = await submit({ quoteId, signature: variant });
      expect(res.status).toBe(400);
      // Refused by the relay's own check (the taker has no code: the strict rule), naming the rule it breaks.
      expect(res.body).toMatchObject({ error: "bad_signature", message: expect.stringMatching(rule) });
      await expect(fill(variant)).rejects.toThrow(/TakerLegFailed/);
    }
    await expect(fill(signature)).resolves.toBeDefined();
  });
});

describe("a resolver whose address has code", () => {
  /** A fresh EOA holding both tokens, the executor approved, with ETH for gas. */
  async function freshResolver() {
    const account = privateKeyToAccount(generatePrivateKey());
    await testClient.setBalance({ address: account.address, value: parseEther("1") });
    await mint(account.address, 10_000_000_000n);
    await approve(account, EVM.usdc, EVM.executor, maxUint256);
    return account;
  }

  /**
   * Delegates the account's code by a real EIP-7702 (type 4) transaction, sent for it by the deployer to
   * itself (a call to the account would run the delegate's code, which has no fallback).
   */
  async function delegate(account: ReturnType<typeof privateKeyToAccount>, to: `0x${string}`) {
    const authorization = await walletOf(account).signAuthorization({ contractAddress: to });
    const hash = await deployer.sendTransaction({ authorizationList: [authorization], to: deployer.account.address });
    expect((await chainClient.waitForTransactionReceipt({ hash })).status).toBe("success");
  }

  const claims = [{ chainId: EVM.chainId, token: EVM.usdc, balance: "5000000000", allowance: "5000000000" }];

  it("is shown degraded has_code and asked nothing while its EOA is delegated, and asked again once it is not", async () => {
    const account = await freshResolver();
    await delegate(account, EVM.permit2);
    expect(await chainClient.getCode({ address: account.address })).toBe(
      `0xef0100${EVM.permit2.slice(2).toLowerCase()}`,
    );
    const socket = await connect();
    open.push(socket);
    await authenticate(socket, account, { name: "delegated" });
    await socket.next("welcome");
    socket.send(heartbeat("quoting", { inventory: claims }));
    const check = await untilInventoryChecked(account.address);
    expect(check.read).toMatchObject({ hasCode: true });
    // What it holds would be asked: only its code keeps it out.
    expect(check.read?.entries).toContainEqual({
      chainId: EVM.chainId,
      token: EVM.usdc.toLowerCase(),
      balance: "10000000000",
      allowance: maxUint256.toString(),
    });
    expect(await nodeOf(account.address)).toMatchObject({ state: "degraded", degraded: "has_code", fresh: true });

    const honest = await node(2, "honest");
    const pending = requestQuote();
    await honest.bid(await honest.nextRfq(), 1_000_000n);
    const { status, body } = await pending;
    expect(status).toBe(200);
    expect(body.resolver?.name).toBe("honest");
    await expect(socket.next("rfq", 200)).rejects.toThrow("no rfq frame");

    // Delegating to the zero address clears the code; the next read (at most every 10 s) sees it gone.
    await delegate(account, zeroAddress);
    expect(await chainClient.getCode({ address: account.address })).toBeUndefined();
    await new Promise((r) => setTimeout(r, READ_EVERY_MS));
    socket.send(heartbeat("quoting", { inventory: claims }));
    await eventually(async () =>
      expect(await nodeOf(account.address)).toMatchObject({ state: "quoting", degraded: null }),
    );
    const again = requestQuote();
    const rfq = await socket.next("rfq");
    socket.send({ type: "decline", rfqId: rfq.rfqId, reason: "test" });
    await honest.bid(await honest.nextRfq(), 1_000_000n);
    expect((await again).status).toBe(200);
  }, 30_000);
});
