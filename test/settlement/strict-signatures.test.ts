import { env } from "cloudflare:test";
import type { Hex } from "viem";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { rfqExecutorAbi } from "../../src/chains/evm/abi/rfq-executor";
import { parseSigning } from "../../src/chains/evm/stored-signing";
import type { QuoteRecord } from "../../src/schemas/quote";
import type { NodeRecord } from "../../src/schemas/resolvers";
import { type Bidder, bidder, marketSellAmount, quoteBody, signBid } from "../support/bidder";
import { flipV, highS, vAsParity } from "../support/signature-variants";
import { getJson, type TestSocket } from "../support/ws-client";
import { app, chainClient, EVM, fundedResolver, KEEPER, newTaker, seedQuote, signQuote, submit } from "./helpers";

/**
 * The relay refuses what the chain refuses (docs/api.md, "Signatures"): a bid or a taker's signature
 * that the executor would refuse, against anvil and the project's contracts.
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
  return { status: res.status, body: (await res.json()) as QuoteRecord & Record<string, unknown> };
};

const _nodeOf = async (address: string) =>
  (await getJson<{ nodes: NodeRecord[] }>("/v1/nodes")).body.nodes.find((n) => n.address === address);

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
    const { order, permit, resolverSignature } = parseSigning(quote.signing);
    const takerSignature = await signQuote(taker, typedData);
    const fill = (signature: Hex) =>
      chainClient.simulateContract({
        account: KEEPER,
        address: EVM.executor,
        abi: rfqExecutorAbi,
        functionName: "fill",
        args: [order, permit, taker.address, takerSignature, signature],
      });
    await expect(fill(resolverSignature)).resolves.toBeDefined();
    await expect(fill(flipV(resolverSignature))).rejects.toThrow(/InvalidResolverSignature/);
  });
});

describe("a taker's signature with v 0/1 or a high s", () => {
  it("is refused on submission with 400 bad_signature, as Permit2 refuses it on the executor", async () => {
    const taker = await newTaker();
    const { quoteId, quote, typedData } = await seedQuote({ taker: taker.address, resolver: fundedResolver(3) });
    const { order, permit, resolverSignature } = parseSigning(quote.signing);
    const signature = await signQuote(taker, typedData);
    const fill = (takerSignature: Hex) =>
      chainClient.simulateContract({
        account: KEEPER,
        address: EVM.executor,
        abi: rfqExecutorAbi,
        functionName: "fill",
        args: [order, permit, taker.address, takerSignature, resolverSignature],
      });
    for (const variant of [vAsParity(signature), highS(signature)]) {
      const res = await submit({ quoteId, signature: variant });
      expect(res.status).toBe(400);
      // Refused by the relay's own check, before any chain read or simulation.
      expect(res.body).toMatchObject({
        error: "bad_signature",
        reason: "not the taker's signature over the typedData",
      });
      await expect(fill(variant)).rejects.toThrow(/TakerLegFailed/);
    }
    await expect(fill(signature)).resolves.toBeDefined();
  });
});
