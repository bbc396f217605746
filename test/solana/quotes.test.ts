import { env } from "cloudflare:test";
import { base58, base64 } from "@scure/base";
import { VersionedTransaction } from "@solana/web3.js";
import { afterEach, describe, expect, it } from "vitest";
import { localSolanaKeypair } from "../../scripts/lib/solana-harness/accounts";
import { createApp } from "../../src/app";
import { swapCreations } from "../../src/chains/solana/swap-creations";
import { verifyWinnerSignature } from "../../src/chains/solana/swap-signatures";
import { MEMO_PROGRAM } from "../../src/chains/solana/swap-transaction";
import { swapTransfers } from "../../src/chains/solana/swap-transfers";
import { isEmptySlot, readWireBase64, slotBytes } from "../../src/chains/solana/wire";
import { checkSignRequest } from "../../src/clients/resolver/solana-sign";
import { loadConfig } from "../../src/config/load";
import type { SolanaChain } from "../../src/config/schema";
import { cancelQuoteMessage } from "../../src/quotes/messages";
import { SOL } from "../support/ws-client";
import { marketSellAmount, type SolanaBidder, signText, solanaBidder } from "./bidder";

const app = createApp();
const chain = loadConfig(env.RELAY_CONFIG).chains.find((c): c is SolanaChain => c.kind === "solana") as SolanaChain;
const taker = localSolanaKeypair("taker:5");

const post = async (path: string, body: unknown) => {
  const res = await app.request(
    path,
    { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) },
    env,
  );
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

const quoteBody = (sellAmount: string) => ({
  chainId: SOL.chainId,
  sellToken: SOL.cngn,
  buyToken: SOL.usdc,
  sellAmount,
  taker: taker.publicKey.toBase58(),
});

describe("POST /v1/quotes on Solana", () => {
  const nodes: SolanaBidder[] = [];
  afterEach(() => {
    for (const n of nodes.splice(0)) n.socket.close();
  });

  it("asks the winner to sign the swap and answers the transaction with its signature in place", async () => {
    const alpha = await solanaBidder(0, "alpha");
    nodes.push(alpha);
    const sellAmount = await marketSellAmount(app);
    const pending = post("/v1/quotes", quoteBody(sellAmount));
    const rfq = await alpha.nextRfq();
    expect(rfq.toSign).toMatchObject({ scheme: "ed25519" });
    alpha.bid(rfq, 1_000_000n);
    const sign = await alpha.nextSign();
    // The reference resolver's check: the transaction moves exactly what the bid said.
    const resolver = alpha.keypair.publicKey.toBase58();
    expect(checkSignRequest(chain, rfq, { resolver, outputAmount: 1_000_000n }, sign.transaction).ok).toBe(true);
    alpha.sign(sign);
    const { status, body } = await pending;
    expect(status).toBe(200);
    expect(body).toMatchObject({
      status: "quoted",
      chainId: SOL.chainId,
      // The quote names the Solana key that signed for its resolver beside the resolver's identity.
      resolver: { address: alpha.account.address, name: "alpha", solanaAddress: resolver },
      lastValidBlockHeight: expect.any(Number),
    });
    expect(body.typedData).toBeUndefined();

    const transaction = String(body.transaction);
    const wire = readWireBase64(transaction);
    if (!wire) throw new Error("the quote's transaction is not a transaction");
    // The keeper pays the fee (first slot); the taker and the resolver sign; only the resolver's slot is filled.
    const slot = (key: string) => wire.signers.indexOf(key);
    expect(wire.signers[0]).toBe(chain.keeper);
    expect([...wire.signers].sort()).toEqual([chain.keeper, taker.publicKey.toBase58(), resolver].sort());
    expect([0, slot(taker.publicKey.toBase58())].map((i) => isEmptySlot(slotBytes(wire, i)))).toEqual([true, true]);
    const resolverSignature = base58.encode(slotBytes(wire, slot(resolver)));
    expect(verifyWinnerSignature(sign.transaction, resolver, resolverSignature)).toBe(true);

    // It moves the quote's money and names the quote in its memo.
    const message = VersionedTransaction.deserialize(base64.decode(transaction)).message;
    const keys = message.staticAccountKeys.map((k) => k.toBase58());
    const legs = swapTransfers(message, keys);
    const quoteId = String(body.quoteId);
    expect(legs.map((l) => [l.from, l.mint, l.amount.toString()])).toEqual(
      expect.arrayContaining([
        [taker.publicKey.toBase58(), SOL.cngn, String(body.takerPays)],
        [resolver, SOL.usdc, String(body.received)],
      ]),
    );
    // Before them it creates their destinations where missing, the resolver's sale account first, then the
    // recipient's: a failed creation names its account's owner (docs/settlement.md).
    const creations = swapCreations(message, keys).slice(0, 2);
    expect(creations.map((c) => [c.owner, c.mint])).toEqual([
      [resolver, SOL.cngn],
      [taker.publicKey.toBase58(), SOL.usdc],
    ]);
    expect(creations.map((c) => c.account)).toEqual(legs.slice(0, 2).map((l) => l.destination));
    const memo = message.compiledInstructions.find((ix) => keys[ix.programIdIndex] === MEMO_PROGRAM);
    expect(new TextDecoder().decode(memo?.data)).toBe(quoteId);

    const read = await app.request(`/v1/quotes/${quoteId}`, {}, env);
    expect(await read.json()).toMatchObject({
      quoteId,
      status: "quoted",
      replies: { valid: 1 },
      resolver: { address: alpha.account.address, name: "alpha", solanaAddress: resolver },
    });
  });

  it("falls to the next bid when the winner does not sign within 500 ms, and strikes the first", async () => {
    const alpha = await solanaBidder(0, "alpha");
    const beta = await solanaBidder(1, "beta");
    nodes.push(alpha, beta);
    const pending = post("/v1/quotes", quoteBody(await marketSellAmount(app)));
    const [ra, rb] = await Promise.all([alpha.nextRfq(), beta.nextRfq()]);
    alpha.bid(ra, 1_010_000n);
    beta.bid(rb, 1_000_000n);
    await alpha.nextSign();
    const started = Date.now();
    beta.sign(await beta.nextSign());
    const { status, body } = await pending;
    expect(status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(body.resolver).toMatchObject({ name: "beta", solanaAddress: beta.keypair.publicKey.toBase58() });
    expect((body.offers as { name: string; status: string }[]).map((o) => [o.name, o.status])).toEqual([
      ["alpha", "lost"],
      ["beta", "won"],
    ]);
    const wire = readWireBase64(String(body.transaction));
    expect(wire?.signers).toContain(beta.keypair.publicKey.toBase58());
    expect(wire?.signers).not.toContain(alpha.keypair.publicKey.toBase58());
    const strikes = await env.DB.prepare("SELECT strikes FROM resolvers WHERE address = ?")
      .bind(alpha.account.address.toLowerCase())
      .first<{ strikes: number }>();
    expect(strikes?.strikes).toBe(1);
  });

  it("does not ask a node that proved no Solana key", async () => {
    const evmOnly = await solanaBidder(0, "evm-only", { solana: false });
    nodes.push(evmOnly);
    const { status, body } = await post("/v1/quotes", quoteBody(await marketSellAmount(app)));
    expect(status).toBe(404);
    expect(body).toMatchObject({ error: "no_offers", nodesOnline: 1, replies: { valid: 0, noReply: 0 } });
    await expect(evmOnly.nextRfq(200)).rejects.toThrow(/no rfq frame/);
  });

  it("cancels a Solana quote with the taker's ed25519 signature, and refuses another signer's", async () => {
    // Not node 0: its strike above demoted it.
    const alpha = await solanaBidder(2, "gamma");
    nodes.push(alpha);
    const pending = post("/v1/quotes", quoteBody(await marketSellAmount(app)));
    alpha.bid(await alpha.nextRfq(), 1_000_000n);
    alpha.sign(await alpha.nextSign());
    const quoteId = String((await pending).body.quoteId);
    const text = cancelQuoteMessage(SOL.chainId, quoteId);
    const forged = await post(`/v1/quotes/${quoteId}/cancel`, { signature: signText(alpha.keypair, text) });
    expect([forged.status, forged.body.error]).toEqual([400, "bad_signature"]);
    const cancelled = await post(`/v1/quotes/${quoteId}/cancel`, { signature: signText(taker, text) });
    expect([cancelled.status, cancelled.body.status]).toEqual([200, "cancelled"]);
  });
});
