import { base64 } from "@scure/base";
import {
  createApproveInstruction,
  createAssociatedTokenAccountIdempotentInstruction,
  getAssociatedTokenAddressSync,
} from "@solana/spl-token";
import {
  Keypair,
  PublicKey,
  SystemProgram,
  type TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { checkTakerTransaction } from "../../src/chains/solana/swap-checks";
import { signRequest, withSignature } from "../../src/chains/solana/swap-signatures";
import { buildSwapTransaction } from "../../src/chains/solana/swap-transaction";
import { requestSolanaQuote, type SolanaQuote } from "../../src/clients/taker/relay";
import { QuoteMismatchError } from "../../src/clients/taker/sign";
import { solanaTransactionMismatch } from "../../src/clients/taker/solana-quote";
import { signSolanaQuote, swapOnSolana } from "../../src/clients/taker/solana-swap";
import { localSolana, signMessageOf, swapQuote } from "../support/solana-swap";

const BLOCKHASH = "CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3PECGUCAEMbky";
const takerKeypair = Keypair.generate();
const taker = takerKeypair.publicKey.toBase58();
const resolverKeypair = Keypair.generate();
const resolver = resolverKeypair.publicKey.toBase58();

/**
 * A Solana quote as `POST /v1/quotes` answers it: the relay's swap for the winning bid, signed by the
 * winner, the record's amounts beside it (through JSON, as the wire has it).
 */
function solanaQuote(sell: "cNGN" | "USDC" = "cNGN", recipient = taker): SolanaQuote {
  const quoteId = `q_${crypto.randomUUID().replaceAll("-", "")}`;
  const [sellAmount, outputAmount] = sell === "cNGN" ? [1_580_000_000n, 1_000_140n] : [1_000_000n, 1_577_000_000n];
  const { terms, amounts } = swapQuote({ taker, recipient, sell, sellAmount, outputAmount, quoteId });
  const request = signRequest(buildSwapTransaction(localSolana, terms, { resolver, amounts }, BLOCKHASH));
  const transaction = withSignature(request, resolver, signMessageOf(request, resolverKeypair));
  return JSON.parse(
    JSON.stringify({
      quoteId,
      chainId: 103,
      taker,
      recipient,
      sellToken: terms.sellToken,
      buyToken: terms.buyToken,
      sellAmount: sellAmount.toString(),
      received: amounts.received.toString(),
      takerPays: amounts.takerPays.toString(),
      proceeds: amounts.proceeds.toString(),
      resolver: { address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", name: "alpha" },
      transaction,
      lastValidBlockHeight: 150,
    }),
  );
}

/** The quote's transaction rebuilt with its instructions changed (and, if given, another fee payer). */
function rebuilt(
  quote: SolanaQuote,
  change: (ixs: TransactionInstruction[]) => TransactionInstruction[],
  payer?: PublicKey,
): SolanaQuote {
  const tx = VersionedTransaction.deserialize(base64.decode(quote.transaction));
  const message = TransactionMessage.decompile(tx.message);
  const compiled = new TransactionMessage({
    payerKey: payer ?? message.payerKey,
    recentBlockhash: message.recentBlockhash,
    instructions: change(message.instructions),
  }).compileToV0Message();
  return { ...quote, transaction: base64.encode(new VersionedTransaction(compiled).serialize()) };
}

describe("a taker signing a Solana quote", () => {
  it.each(["cNGN", "USDC"] as const)(
    "signs the relay's swap selling %s in its own slot, the resolver's signature kept: the relay accepts it",
    (sell) => {
      const quote = solanaQuote(sell);
      expect(solanaTransactionMismatch(quote, taker)).toBeNull();
      const signed = signSolanaQuote(takerKeypair, quote);
      // The relay's own check: the taker's slot holds its signature, every other byte is the quote's.
      expect(checkTakerTransaction(quote.transaction, signed, taker)).toMatchObject({ ok: true });
    },
  );

  it("refuses, signing nothing, a record that says something else than the transaction", () => {
    const quote = solanaQuote();
    const cases: [SolanaQuote, RegExp][] = [
      [{ ...quote, takerPays: (BigInt(quote.takerPays) - 1n).toString() }, /takes 1580000000 .* not 1579999999/],
      [{ ...quote, received: (BigInt(quote.received) + 1n).toString() }, /pays the recipient/],
      [{ ...quote, recipient: Keypair.generate().publicKey.toBase58() }, /pays the recipient 0/],
      [{ ...quote, quoteId: "q_other" }, /does not carry the quote id q_other/],
      [{ ...quote, taker: Keypair.generate().publicKey.toBase58() }, /is a quote for/],
      [{ ...quote, transaction: "not base64!" }, /not a serialized Solana transaction/],
    ];
    for (const [changed, reason] of cases) {
      expect(solanaTransactionMismatch(changed, taker)).toMatch(reason);
      expect(() => signSolanaQuote(takerKeypair, changed)).toThrow(QuoteMismatchError);
    }
    const someoneElse = Keypair.generate();
    expect(
      solanaTransactionMismatch(
        { ...quote, taker: someoneElse.publicKey.toBase58() },
        someoneElse.publicKey.toBase58(),
      ),
    ).toBe("does not ask the taker to sign");
  });

  it("refuses a transaction that does more with the taker's keys than the swap", () => {
    const quote = solanaQuote();
    const usdc = new PublicKey(quote.buyToken);
    const takerKey = takerKeypair.publicKey;
    const takerUsdc = getAssociatedTokenAddressSync(usdc, takerKey);
    const cases: [SolanaQuote, RegExp][] = [
      [
        rebuilt(quote, (ixs) => [
          ...ixs,
          SystemProgram.transfer({ fromPubkey: takerKey, toPubkey: resolverKeypair.publicKey, lamports: 1 }),
        ]),
        /of program 11111111111111111111111111111111, which a swap does not/,
      ],
      [
        rebuilt(quote, (ixs) => [...ixs, createApproveInstruction(takerUsdc, resolverKeypair.publicKey, takerKey, 1n)]),
        /which a swap does not/,
      ],
      [
        rebuilt(quote, (ixs) => [
          createAssociatedTokenAccountIdempotentInstruction(takerKey, takerUsdc, takerKey, usdc),
          ...ixs,
        ]),
        /has the taker pay for a token account \(instruction 0\)/,
      ],
      [rebuilt(quote, (ixs) => ixs, takerKey), /makes the taker pay its fee/],
    ];
    for (const [changed, reason] of cases) expect(solanaTransactionMismatch(changed, taker)).toMatch(reason);
    // The same rebuild with nothing changed is still the swap: the refusals above are for what was added.
    expect(
      solanaTransactionMismatch(
        rebuilt(quote, (ixs) => ixs),
        taker,
      ),
    ).toBeNull();
  });
});

describe("swapOnSolana", () => {
  it("quotes, signs and submits with an Idempotency-Key, the transaction signed as the relay checks it", async () => {
    const quote = solanaQuote();
    const calls: { url: string; body: Record<string, unknown>; headers: Record<string, string> }[] = [];
    const fake = async (input: string | URL | Request, init?: RequestInit) => {
      const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
      calls.push({ url: String(input), body, headers: init?.headers as Record<string, string> });
      return String(input).endsWith("/v1/quotes")
        ? Response.json(quote)
        : Response.json(
            { quoteId: quote.quoteId, executionId: "ex_1", status: "submitted", txHash: "5sig" },
            { status: 202 },
          );
    };
    const { submission, request } = await swapOnSolana(
      {
        relayUrl: "http://relay.test/",
        keypair: takerKeypair,
        chainId: 103,
        sellToken: quote.sellToken,
        buyToken: quote.buyToken,
        sellAmount: 1_580_000_000n,
        idempotencyKey: "key-1",
      },
      { fetch: fake as typeof fetch },
    );
    expect(submission).toEqual({
      httpStatus: 202,
      answer: { quoteId: quote.quoteId, executionId: "ex_1", status: "submitted", txHash: "5sig" },
    });
    expect(calls.map((c) => c.url)).toEqual(["http://relay.test/v1/quotes", "http://relay.test/v1/executions"]);
    expect(calls[0]?.body).toEqual({
      chainId: 103,
      sellToken: quote.sellToken,
      buyToken: quote.buyToken,
      sellAmount: "1580000000",
      taker,
    });
    expect(calls[1]?.headers["idempotency-key"]).toBe("key-1");
    expect(calls[1]?.body).toEqual(request);
    expect(checkTakerTransaction(quote.transaction, request.transaction, taker)).toMatchObject({ ok: true });
  });

  it("takes no Solana quote without a transaction to sign", async () => {
    const { transaction: _, ...bare } = solanaQuote();
    const fake = async () => Response.json(bare);
    await expect(
      requestSolanaQuote(
        "http://relay.test",
        { chainId: 103, sellToken: bare.sellToken, buyToken: bare.buyToken, sellAmount: "1", taker },
        { fetch: fake as typeof fetch },
      ),
    ).rejects.toThrow(/without a transaction/);
  });
});
