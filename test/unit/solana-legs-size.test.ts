import { base58 } from "@scure/base";
import { createAssociatedTokenAccountIdempotentInstruction, createTransferCheckedInstruction } from "@solana/spl-token";
import { PublicKey, TransactionMessage, VersionedTransaction } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { localSolanaKeypair } from "../../scripts/lib/solana-harness/accounts";
import { SOLANA_MAX_LEGS } from "../../src/chains/solana/config";
import { buildSwapTransaction, MAX_TRANSACTION_BYTES, tokenAccount } from "../../src/chains/solana/swap-transaction";
import { localSolana, swapQuote } from "../support/solana-swap";

/**
 * How many legs one Solana swap can carry (docs/legs.md, "How many legs a fill may have"): the swap of one
 * maker the relay builds, with a recipient other than the taker (its largest form), and each further maker
 * as `makerLegs` adds it: its signature, its sell-token account created (paid by itself), the taker's part
 * of the sale to it, its output to the recipient and its protocol fee to the treasury (the gas fee is paid
 * once, by the first maker whose output covers it). Parts are taken only with both fees in the buy token
 * (`partRules`), so selling cNGN for USDC; the builder's own swap of two makers is the model's size, and
 * one of three fails to build.
 */

const taker = localSolanaKeypair("taker:5");
const recipient = localSolanaKeypair("test:stranger").publicKey.toBase58();
const resolvers = [1, 2, 3, 4].map((n) => localSolanaKeypair(`resolver:${n}`).publicKey.toBase58());
const blockhash = base58.encode(new Uint8Array(32).fill(7));
const tokenBy = (symbol: string) =>
  localSolana.tokens.find((t) => t.symbol === symbol) as (typeof localSolana.tokens)[0];

function swapOfLegs(legs: number, sell: "cNGN" | "USDC"): VersionedTransaction {
  const { terms, amounts } = swapQuote({
    taker: taker.publicKey.toBase58(),
    recipient,
    sell,
    sellAmount: sell === "cNGN" ? 1_580_000_000n : 1_000_000n,
    outputAmount: sell === "cNGN" ? 1_000_140n : 1_580_000_000n,
    quoteId: "q_0be4a1d2c3b4a5968778695a4b3c2d1e",
  });
  const one = buildSwapTransaction(localSolana, terms, { resolver: resolvers[0] as string, amounts }, blockhash);
  const { instructions } = TransactionMessage.decompile(one.message);
  const memo = instructions.pop();
  const sold = tokenBy(sell);
  const bought = tokenBy(sell === "cNGN" ? "USDC" : "cNGN");
  const key = (a: string) => new PublicKey(a);
  const transfer = (token: typeof sold, from: string, to: string) =>
    createTransferCheckedInstruction(
      tokenAccount(token, from),
      key(token.address),
      tokenAccount(token, to),
      key(from),
      1n,
      token.decimals,
      [],
      key(token.tokenProgram),
    );
  for (const resolver of resolvers.slice(1, legs)) {
    const ownAccount = tokenAccount(sold, resolver);
    instructions.push(
      createAssociatedTokenAccountIdempotentInstruction(
        key(resolver),
        ownAccount,
        key(resolver),
        key(sold.address),
        key(sold.tokenProgram),
      ),
      transfer(sold, terms.taker, resolver),
      transfer(bought, resolver, recipient),
    );
    if (terms.fee.side === "buy") instructions.push(transfer(bought, resolver, localSolana.treasury));
  }
  if (memo) instructions.push(memo);
  const message = new TransactionMessage({
    payerKey: key(localSolana.keeper),
    recentBlockhash: blockhash,
    instructions,
  });
  return new VersionedTransaction(message.compileToV0Message());
}

/** Bytes of a compact-u16 length, as the wire format spells one. */
const compact = (n: number) => (n < 0x80 ? 1 : n < 0x4000 ? 2 : 3);

/**
 * The transaction's serialized size, counted from its compiled message: web3.js refuses to serialize a
 * message over the packet limit, and the sizes past it are the point here.
 */
function sizeOf(tx: VersionedTransaction): number {
  const m = tx.message;
  const signatures = m.header.numRequiredSignatures;
  const keys = m.staticAccountKeys.length;
  const instructions = m.compiledInstructions.reduce(
    (sum, ix) =>
      sum +
      1 +
      compact(ix.accountKeyIndexes.length) +
      ix.accountKeyIndexes.length +
      compact(ix.data.length) +
      ix.data.length,
    0,
  );
  const message = 1 + 3 + compact(keys) + 32 * keys + 32 + compact(m.compiledInstructions.length) + instructions + 1;
  return compact(signatures) + 64 * signatures + message;
}

describe("the legs one Solana swap can carry", () => {
  it("counts a transaction's size as it serializes", () => {
    for (const sell of ["cNGN", "USDC"] as const) {
      for (const legs of [1, 2]) {
        const tx = swapOfLegs(legs, sell);
        expect(sizeOf(tx)).toBe(tx.serialize().length);
      }
    }
  });

  it("selling cNGN: 973, 1,194, 1,415 and 1,636 bytes for 1 to 4 makers; SOLANA_MAX_LEGS fit, one more does not", () => {
    const measured = [1, 2, 3, 4].map((legs) => sizeOf(swapOfLegs(legs, "cNGN")));
    expect(measured).toEqual([973, 1_194, 1_415, 1_636]);
    expect(swapOfLegs(SOLANA_MAX_LEGS, "cNGN").message.header.numRequiredSignatures).toBe(SOLANA_MAX_LEGS + 2);
    expect(measured[SOLANA_MAX_LEGS - 1]).toBeLessThanOrEqual(MAX_TRANSACTION_BYTES);
    expect(measured[SOLANA_MAX_LEGS]).toBeGreaterThan(MAX_TRANSACTION_BYTES);
  });

  it("the relay's own swap of two makers is the model's size; of three it refuses to build", () => {
    const { terms } = swapQuote({
      taker: taker.publicKey.toBase58(),
      recipient,
      sell: "cNGN",
      sellAmount: 3_000_000_000n,
      outputAmount: 1_900_000n,
      quoteId: "q_0be4a1d2c3b4a5968778695a4b3c2d1e",
    });
    const makers = (n: number) =>
      resolvers.slice(0, n).map((resolver) => ({ resolver, sellAmount: 1_000_000_000n, outputAmount: 633_333n }));
    const amountsOf = (n: number) => {
      const outputAmount = 633_333n * BigInt(n);
      const fee = 633n * BigInt(n);
      const sold = 1_000_000_000n * BigInt(n);
      return {
        outputAmount,
        fee,
        gasFee: 5_000n,
        received: outputAmount - fee - 5_000n,
        takerPays: sold,
        proceeds: sold,
      };
    };
    const build = (n: number) =>
      buildSwapTransaction(
        localSolana,
        { ...terms, sellAmount: 1_000_000_000n * BigInt(n) },
        { resolver: resolvers[0] as string, amounts: amountsOf(n), makers: makers(n) },
        blockhash,
      );
    expect(build(2).serialize().length).toBe(sizeOf(swapOfLegs(2, "cNGN")));
    expect(() => build(3)).toThrow("the swap transaction is 1415 bytes, over the packet limit");
  });
});
