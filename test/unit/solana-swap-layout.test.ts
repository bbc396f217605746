import { base58 } from "@scure/base";
import { TransactionMessage } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { localSolanaKeypair } from "../../scripts/lib/solana-harness/accounts";
import { buildSwapTransaction } from "../../src/chains/solana/swap-transaction";
import { localSolana, swapQuote } from "../support/solana-swap";

/**
 * The swap's message as docs/settlement.md ("The account keys and the size") spells it for a resolver that
 * rebuilds it byte for byte: its account keys in the order the rule there gives, rebuilt here from the
 * instructions alone, and its size on the local chain.
 */

const taker = localSolanaKeypair("taker:5");
const resolver = localSolanaKeypair("resolver:1");
const stranger = localSolanaKeypair("test:stranger");
const blockhash = base58.encode(new Uint8Array(32).fill(7));

function swap(sell: "cNGN" | "USDC", recipient?: string) {
  const { terms, amounts } = swapQuote({
    taker: taker.publicKey.toBase58(),
    recipient,
    sell,
    sellAmount: sell === "cNGN" ? 1_580_000_000n : 1_000_000n,
    outputAmount: sell === "cNGN" ? 1_000_140n : 1_580_000_000n,
    quoteId: "q_0be4a1d2c3b4a5968778695a4b3c2d1e",
  });
  return buildSwapTransaction(localSolana, terms, { resolver: resolver.publicKey.toBase58(), amounts }, blockhash);
}

/**
 * The documented rule: the fee payer first; then every other key, grouped as signer and writable, signer
 * only, writable only, neither; within a group in the order the instructions first name it (each
 * instruction's program, then its accounts in order). A key is a signer or writable if any use of it is.
 */
function documentedOrder(tx: ReturnType<typeof swap>): string[] {
  const { instructions, payerKey } = TransactionMessage.decompile(tx.message);
  const keys = new Map<string, { signer: boolean; writable: boolean }>();
  const use = (key: string, signer: boolean, writable: boolean) => {
    const seen = keys.get(key) ?? { signer: false, writable: false };
    keys.set(key, { signer: seen.signer || signer, writable: seen.writable || writable });
  };
  use(payerKey.toBase58(), true, true);
  for (const ix of instructions) {
    use(ix.programId.toBase58(), false, false);
    for (const meta of ix.keys) use(meta.pubkey.toBase58(), meta.isSigner, meta.isWritable);
  }
  const payer = payerKey.toBase58();
  const rest = [...keys].filter(([k]) => k !== payer);
  const group = (signer: boolean, writable: boolean) =>
    rest.filter(([, f]) => f.signer === signer && f.writable === writable).map(([k]) => k);
  return [payer, ...group(true, true), ...group(true, false), ...group(false, true), ...group(false, false)];
}

describe("the Solana swap's account keys and size", () => {
  it.each([
    ["cNGN", undefined, 941, 17],
    ["cNGN", "other", 973, 18],
    ["USDC", undefined, 941, 17],
    ["USDC", "other", 973, 18],
  ] as const)("selling %s to %s: keys in the documented order, %i bytes, %i keys", (sell, to, bytes, count) => {
    const tx = swap(sell, to ? stranger.publicKey.toBase58() : undefined);
    const keys = tx.message.staticAccountKeys.map((k) => k.toBase58());
    expect(keys).toEqual(documentedOrder(tx));
    expect(keys.slice(0, 3)).toEqual([localSolana.keeper, resolver.publicKey.toBase58(), taker.publicKey.toBase58()]);
    // The resolver pays its own account's creation, so it is a writable signer; the taker signs read-only.
    expect([0, 1, 2].map((i) => tx.message.isAccountWritable(i))).toEqual([true, true, false]);
    expect(tx.message.header).toEqual({
      numRequiredSignatures: 3,
      numReadonlySignedAccounts: 1,
      numReadonlyUnsignedAccounts: count - 9,
    });
    expect(keys).toHaveLength(count);
    expect(tx.serialize().length).toBe(bytes);
  });
});
