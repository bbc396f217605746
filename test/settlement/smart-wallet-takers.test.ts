import { env } from "cloudflare:test";
import { type Address, type Hex, hashMessage } from "viem";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { cancelQuoteMessage } from "../../src/quotes/messages";
import type { Quote } from "../../src/schemas/quote";
import { type Bidder, bidder, marketSellAmount, quoteBody } from "../support/bidder";
import { highS } from "../support/signature-variants";
import { eventually } from "../support/ws-client";
import {
  app,
  balanceOf,
  EVM,
  fundedResolver,
  getQuote,
  indexUntil,
  newTaker,
  seedQuote,
  signQuote,
  submit,
  testClient,
} from "./helpers";
import { delegatedTaker, digestOf, ownerWallet, signAsAccount, signAsOwner } from "./smart-wallets";

/**
 * Takers whose addresses have code (docs/settlement.md, "Takers with smart wallets"): the relay checks
 * their signature as Permit2 will, by the address's `isValidSignature` (ERC-1271), read in the
 * submission's one preflight batch; an address without code still by the strict ECDSA rule. On anvil with
 * the project's contracts, a one-owner wallet in the manner of a Safe and an EOA delegated by EIP-7702.
 */

let sellAmount = "";
beforeAll(async () => {
  sellAmount = await marketSellAmount((path) => app.request(path, {}, env));
});

let open: Bidder[] = [];
afterEach(() => {
  for (const b of open) b.socket.close();
  open = [];
});

/** A real auction for `taker`, a fresh node bidding 1 USDC; the quote and its typedData. */
async function auctionQuote(taker: Address) {
  const node = await bidder(0, "alpha");
  open.push(node);
  await eventually(async () => {
    const { nodes } = (await (await app.request("/v1/nodes", {}, env)).json()) as { nodes: { fresh: boolean }[] };
    expect(nodes.some((n) => n.fresh)).toBe(true);
  });
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

/** Submits the taker's signature and follows the fill to final; the taker's cNGN paid and USDC received. */
async function swapToFinal(taker: Address, quote: Quote, signature: Hex) {
  const [cngnBefore, usdcBefore] = [await balanceOf(EVM.cngn, taker), await balanceOf(EVM.usdc, taker)];
  const res = await submit({ quoteId: quote.quoteId, signature });
  expect(res.body).toMatchObject({ status: "submitted" });
  expect(res.status).toBe(202);
  expect((await indexUntil(quote.quoteId, (q) => q.status === "settled")).status).toBe("settled");
  await testClient.mine({ blocks: 1 });
  const final = await indexUntil(quote.quoteId, (q) => q.final);
  expect(final).toMatchObject({ status: "settled", final: true });
  expect(cngnBefore - (await balanceOf(EVM.cngn, taker))).toBe(BigInt(quote.takerPays));
  expect((await balanceOf(EVM.usdc, taker)) - usdcBefore).toBe(BigInt(quote.received));
}

/** The refusal of a signature the taker's code refuses: 400 naming the field, nothing recorded, the quote as it was. */
async function refusedByCode(quoteId: string, signature: Hex) {
  const before = await getQuote(quoteId);
  const res = await submit({ quoteId, signature });
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({
    error: "bad_signature",
    field: "signature",
    reason: expect.stringMatching(/has code.*isValidSignature \(ERC-1271\) refuses/),
  });
  const after = await getQuote(quoteId);
  expect(after.status).toBe("quoted");
  expect(after.timeline).toEqual(before.timeline);
  const { results } = await env.DB.prepare("SELECT execution_id FROM executions WHERE quote_id = ?")
    .bind(quoteId)
    .all();
  expect(results).toEqual([]);
}

describe("a taker that is a smart-contract wallet (ERC-1271, in the manner of a Safe)", () => {
  it("swaps to final with its owner's signature, which only the wallet's code reads as the wallet's", async () => {
    const { owner, wallet } = await ownerWallet();
    const quote = await auctionQuote(wallet);
    await swapToFinal(wallet, quote, await signAsOwner(owner, wallet, digestOf(quote.typedData)));
  }, 30_000);

  it("is refused 400 bad_signature naming the signature when its code refuses it, and nothing is recorded", async () => {
    const { owner, wallet } = await ownerWallet();
    const quote = await auctionQuote(wallet);
    // The owner's plain signature over the digest: a good ECDSA signature, but not what the wallet takes.
    await refusedByCode(quote.quoteId, await signQuote(owner, quote.typedData));
    // The same quote then goes through with what the wallet takes.
    await swapToFinal(wallet, quote, await signAsOwner(owner, wallet, digestOf(quote.typedData)));
  }, 30_000);
});

describe("a taker whose EOA is delegated by EIP-7702 (code 0xef0100 ‖ delegate)", () => {
  it("swaps to final with the signature its delegate takes, not an ECDSA signature over the digest", async () => {
    const account = await delegatedTaker();
    const quote = await auctionQuote(account.address);
    await swapToFinal(account.address, quote, await signAsAccount(account, digestOf(quote.typedData)));
  }, 30_000);

  it("is refused when it signs the digest with its key alone: Permit2 asks the delegate, which refuses", async () => {
    const account = await delegatedTaker();
    const { quoteId, typedData } = await seedQuote({ taker: account.address, resolver: fundedResolver(2) });
    await refusedByCode(quoteId, await signQuote(account, typedData));
  });
});

describe("a taker without code", () => {
  it("is still checked by the strict ECDSA rule: its high-s signature is refused, naming the rule", async () => {
    const taker = await newTaker();
    const { quoteId, typedData } = await seedQuote({ taker: taker.address, resolver: fundedResolver(2) });
    const res = await submit({ quoteId, signature: highS(await signQuote(taker, typedData)) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: "bad_signature",
      field: "signature",
      message: expect.stringMatching(/its s is high .*low-s rule \(EIP-2\)/),
    });
    expect((await getQuote(quoteId)).status).toBe("quoted");
  });
});

describe("a smart-contract wallet's signed messages (a quote's cancel)", () => {
  it("cancels its quote with its owner's signature of the cancel message, as its code takes it", async () => {
    const { owner, wallet } = await ownerWallet();
    const { quoteId } = await seedQuote({ taker: wallet, resolver: fundedResolver(2) });
    const cancel = (signature: Hex) =>
      app.request(
        `/v1/quotes/${quoteId}/cancel`,
        { method: "POST", body: JSON.stringify({ signature }), headers: { "content-type": "application/json" } },
        env,
      );
    const hash = hashMessage(cancelQuoteMessage(EVM.chainId, quoteId));
    // The owner's own EIP-191 signature is not the wallet's: its code refuses it.
    const refused = await cancel(await owner.signMessage({ message: cancelQuoteMessage(EVM.chainId, quoteId) }));
    expect(refused.status).toBe(400);
    const res = await cancel(await signAsOwner(owner, wallet, hash));
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await getQuote(quoteId)).status).toBe("cancelled");
  });
});
