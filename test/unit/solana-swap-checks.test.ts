import { base58, base64 } from "@scure/base";
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  decodeTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
  TOKEN_PROGRAM_ID,
} from "@solana/spl-token";
import {
  ComputeBudgetInstruction,
  ComputeBudgetProgram,
  PublicKey,
  SystemProgram,
  TransactionMessage,
  VersionedTransaction,
} from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { localSolanaKeypair } from "../../scripts/lib/solana-harness/accounts";
import { checkTakerTransaction } from "../../src/chains/solana/swap-checks";
import { signRequest, verifyWinnerSignature, withSignature } from "../../src/chains/solana/swap-signatures";
import { buildSwapTransaction, MAX_TRANSACTION_BYTES, MEMO_PROGRAM } from "../../src/chains/solana/swap-transaction";
import { SMALL_ORDER_ENCODINGS, smallOrderRSignature } from "../support/ed25519-forgeries";
import { addSignatures, localSolana, mintOf, signMessageOf, swapQuote } from "../support/solana-swap";

const taker = localSolanaKeypair("taker:5");
const resolver = localSolanaKeypair("resolver:1");
const keeper = localSolanaKeypair("keeper");
const stranger = localSolanaKeypair("test:stranger");
const blockhash = base58.encode(new Uint8Array(32).fill(7));
const USDC = mintOf(localSolana, "USDC");
const CNGN = mintOf(localSolana, "cNGN");

/** taker:5 sells 1,580 cNGN to resolver:1 for 1.00014 USDC, to `recipient` (the taker by default). */
function swap(recipient?: string, quoteId = "q_checks") {
  const { terms, amounts } = swapQuote({
    taker: taker.publicKey.toBase58(),
    recipient,
    sell: "cNGN",
    sellAmount: 1_580_000_000n,
    outputAmount: 1_000_140n,
    quoteId,
  });
  const tx = buildSwapTransaction(localSolana, terms, { resolver: resolver.publicKey.toBase58(), amounts }, blockhash);
  return { tx, terms, amounts };
}

/** The quote's `transaction`: the sign request with the resolver's signature in place. */
function quoteTransaction(quoteId?: string): string {
  const request = signRequest(swap(undefined, quoteId).tx);
  return withSignature(request, resolver.publicKey.toBase58(), signMessageOf(request, resolver));
}

const ata = (mint: string, owner: PublicKey) => getAssociatedTokenAddressSync(new PublicKey(mint), owner, true);

describe("the Solana swap transaction", () => {
  it("is a v0 transaction paid by the keeper and signed by keeper, taker and resolver", () => {
    const { tx } = swap();
    expect(tx.version).toBe(0);
    const { header, staticAccountKeys } = tx.message;
    expect(header.numRequiredSignatures).toBe(3);
    const signers = staticAccountKeys.slice(0, 3).map((k) => k.toBase58());
    expect(signers[0]).toBe(keeper.publicKey.toBase58());
    expect(new Set(signers)).toEqual(new Set([keeper, taker, resolver].map((k) => k.publicKey.toBase58())));
    expect(tx.message.recentBlockhash).toBe(blockhash);
    expect(tx.message.addressTableLookups).toEqual([]);
    expect(tx.signatures.every((s) => s.every((b) => b === 0))).toBe(true);
  });

  it("sets the compute budget, creates the destinations, moves the four legs and logs the quote id", () => {
    const recipient = stranger.publicKey;
    const { tx, amounts } = swap(recipient.toBase58());
    const ixs = TransactionMessage.decompile(tx.message).instructions;
    expect(ixs.map((ix) => ix.programId.toBase58())).toEqual([
      ...Array(2).fill(ComputeBudgetProgram.programId.toBase58()),
      ...Array(4).fill(ASSOCIATED_TOKEN_PROGRAM_ID.toBase58()),
      ...Array(4).fill(TOKEN_PROGRAM_ID.toBase58()),
      MEMO_PROGRAM,
    ]);
    expect(ComputeBudgetInstruction.decodeSetComputeUnitLimit(ixs[0] as never).units).toBe(200_000);
    expect(ComputeBudgetInstruction.decodeSetComputeUnitPrice(ixs[1] as never).microLamports).toBe(1_000n);

    // Idempotent creates (instruction 1): payer, account, owner, mint. The resolver pays for its own
    // account, the keeper for the others (docs/security.md, "A token account closed for its rent").
    const creates = ixs.slice(2, 6).map((ix) => {
      expect([...ix.data]).toEqual([1]);
      expect(ix.keys[4]?.pubkey.toBase58()).toBe(SystemProgram.programId.toBase58());
      return [ix.keys[0]?.pubkey, ix.keys[1]?.pubkey, ix.keys[2]?.pubkey, ix.keys[3]?.pubkey].map((k) => k?.toBase58());
    });
    const treasury = new PublicKey(localSolana.treasury);
    expect(creates).toEqual([
      [resolver.publicKey, ata(CNGN, resolver.publicKey), resolver.publicKey, new PublicKey(CNGN)].map(String),
      [keeper.publicKey, ata(USDC, recipient), recipient, new PublicKey(USDC)].map(String),
      [keeper.publicKey, ata(USDC, treasury), treasury, new PublicKey(USDC)].map(String),
      [keeper.publicKey, ata(USDC, keeper.publicKey), keeper.publicKey, new PublicKey(USDC)].map(String),
    ]);

    const transfers = ixs.slice(6, 10).map((ix) => {
      const { keys, data } = decodeTransferCheckedInstruction(ix);
      return {
        from: keys.source.pubkey.toBase58(),
        mint: keys.mint.pubkey.toBase58(),
        to: keys.destination.pubkey.toBase58(),
        owner: keys.owner.pubkey.toBase58(),
        amount: data.amount,
        decimals: data.decimals,
      };
    });
    const leg = (mint: string, from: PublicKey, to: PublicKey, amount: bigint) => ({
      from: ata(mint, from).toBase58(),
      mint,
      to: ata(mint, to).toBase58(),
      owner: from.toBase58(),
      amount,
      decimals: 6,
    });
    expect(transfers).toEqual([
      leg(CNGN, taker.publicKey, resolver.publicKey, 1_580_000_000n),
      leg(USDC, resolver.publicKey, recipient, amounts.received),
      leg(USDC, resolver.publicKey, new PublicKey(localSolana.treasury), 1_000n),
      leg(USDC, resolver.publicKey, keeper.publicKey, 5_000n),
    ]);
    expect(amounts.received).toBe(994_140n);

    const memo = ixs[10];
    expect(memo?.keys).toEqual([]);
    expect(Buffer.from(memo?.data ?? []).toString("utf8")).toBe("q_checks");
    expect(tx.serialize().length).toBeLessThanOrEqual(MAX_TRANSACTION_BYTES);
  });

  it("creates each account once when two legs share a destination", () => {
    // The keeper as recipient: its USDC account takes the received and the gas fee.
    const { tx } = swap(keeper.publicKey.toBase58());
    const ixs = TransactionMessage.decompile(tx.message).instructions;
    expect(ixs.filter((ix) => ix.programId.equals(ASSOCIATED_TOKEN_PROGRAM_ID))).toHaveLength(3);
    expect(ixs.filter((ix) => ix.programId.equals(TOKEN_PROGRAM_ID))).toHaveLength(4);
  });

  it("refuses a token the chain does not configure", () => {
    const { terms, amounts } = swap();
    const foreign = stranger.publicKey.toBase58();
    const winner = { resolver: resolver.publicKey.toBase58(), amounts };
    expect(() => buildSwapTransaction(localSolana, { ...terms, sellToken: foreign }, winner, blockhash)).toThrow(
      /not a token/,
    );
  });
});

describe("the winner's signature", () => {
  const request = signRequest(swap().tx);

  it("is asked over a transaction with every slot empty", () => {
    const tx = VersionedTransaction.deserialize(base64.decode(request));
    expect(tx.signatures).toHaveLength(3);
    expect(tx.signatures.every((s) => s.every((b) => b === 0))).toBe(true);
    // A transaction someone already signed is asked for with its slots emptied.
    const signed = VersionedTransaction.deserialize(base64.decode(request));
    signed.sign([keeper]);
    expect(signRequest(signed)).toBe(request);
  });

  it("verifies only the resolver's ed25519 signature over the message", () => {
    const key = resolver.publicKey.toBase58();
    expect(verifyWinnerSignature(request, key, signMessageOf(request, resolver))).toBe(true);
    expect(verifyWinnerSignature(request, key, signMessageOf(request, stranger))).toBe(false);
    expect(
      verifyWinnerSignature(request, key, signMessageOf(signRequest(swap(undefined, "q_other").tx), resolver)),
    ).toBe(false);
    // A key that is not the transaction's signer, even with its own valid signature.
    const strangerKey = stranger.publicKey.toBase58();
    expect(verifyWinnerSignature(request, strangerKey, signMessageOf(request, stranger))).toBe(false);
    expect(verifyWinnerSignature(request, key, "not-base58-0OIl")).toBe(false);
    expect(verifyWinnerSignature(request, key, base58.encode(new Uint8Array(63)))).toBe(false);
    expect(verifyWinnerSignature("%%%", key, signMessageOf(request, resolver))).toBe(false);
  });

  it("is put in the resolver's slot, the taker's and the keeper's left empty", () => {
    const signature = signMessageOf(request, resolver);
    const tx = VersionedTransaction.deserialize(
      base64.decode(withSignature(request, resolver.publicKey.toBase58(), signature)),
    );
    tx.message.staticAccountKeys.slice(0, 3).forEach((key, i) => {
      const slot = tx.signatures[i] as Uint8Array;
      if (key.equals(resolver.publicKey)) expect(base58.encode(slot)).toBe(signature);
      else expect(slot.every((b) => b === 0)).toBe(true);
    });
    expect(() => withSignature(request, stranger.publicKey.toBase58(), signature)).toThrow(/not a signer/);
    expect(() => withSignature(request, resolver.publicKey.toBase58(), "abc")).toThrow(/64 bytes/);
    expect(() => withSignature("AAAA", resolver.publicKey.toBase58(), signature)).toThrow(/not a serialized/);
  });
});

describe("checkTakerTransaction", () => {
  const quote = quoteTransaction();
  const takerKey = taker.publicKey.toBase58();
  const signedByTaker = addSignatures(quote, taker);
  const check = (submitted: string) => checkTakerTransaction(quote, submitted, takerKey);
  const refusal = (submitted: string) => {
    const result = check(submitted);
    return result.ok ? "accepted" : result.reason;
  };
  /** `base` with byte `i` flipped. */
  const flipped = (base: string, i: number) => {
    const bytes = base64.decode(base);
    bytes[i] = (bytes[i] ?? 0) ^ 0xff;
    return base64.encode(bytes);
  };
  const layout = () => {
    const tx = VersionedTransaction.deserialize(base64.decode(quote));
    const index = (k: PublicKey) => tx.message.staticAccountKeys.findIndex((s) => s.equals(k));
    return { slot: (k: PublicKey) => 1 + 64 * index(k), messageStart: 1 + 64 * 3, length: base64.decode(quote).length };
  };

  it("accepts the quote's transaction signed by the taker, and gives its bytes back", () => {
    const result = check(signedByTaker);
    expect(result).toEqual({ ok: true, transaction: base64.decode(signedByTaker) });
    // The keeper signs last, and the transaction is then fully signed.
    const tx = VersionedTransaction.deserialize(base64.decode(signedByTaker));
    tx.sign([keeper]);
    expect(tx.signatures.every((s) => s.some((b) => b !== 0))).toBe(true);
  });

  it("refuses any changed byte of the message, wherever it is", () => {
    const { messageStart, length } = layout();
    for (let i = messageStart; i < length; i++) {
      expect(refusal(flipped(signedByTaker, i)), `byte ${i}`).toBe("message_changed");
    }
    // The signature count too.
    expect(refusal(flipped(signedByTaker, 0))).not.toBe("accepted");
  });

  it("refuses an added, missing or foreign transaction", () => {
    const bytes = base64.decode(signedByTaker);
    expect(refusal(base64.encode(bytes.subarray(0, bytes.length - 1)))).not.toBe("accepted");
    expect(refusal(base64.encode(Uint8Array.of(...bytes, 0)))).toBe("not_a_transaction");
    // The same swap for another quote, signed by the same taker.
    expect(refusal(addSignatures(quoteTransaction("q_other"), taker))).toBe("message_changed");
    // A legacy transaction, signed by the taker.
    const legacy = new VersionedTransaction(
      new TransactionMessage({
        payerKey: taker.publicKey,
        recentBlockhash: blockhash,
        instructions: [
          SystemProgram.transfer({ fromPubkey: taker.publicKey, toPubkey: stranger.publicKey, lamports: 1 }),
        ],
      }).compileToLegacyMessage(),
    );
    legacy.sign([taker]);
    expect(refusal(base64.encode(legacy.serialize()))).toBe("message_changed");
  });

  it("refuses a missing, wrong or invalid taker signature", () => {
    expect(refusal(quote)).toBe("taker_signature_missing");
    const { slot } = layout();
    const bytes = base64.decode(quote);
    // Another key's valid signature over the same message, in the taker's slot.
    bytes.set(base58.decode(signMessageOf(quote, stranger)), slot(taker.publicKey));
    expect(refusal(base64.encode(bytes))).toBe("taker_signature_invalid");
    // The taker's signature over another message.
    bytes.set(base58.decode(signMessageOf(quoteTransaction("q_other"), taker)), slot(taker.publicKey));
    expect(refusal(base64.encode(bytes))).toBe("taker_signature_invalid");
    // A changed byte of the taker's own signature.
    expect(refusal(flipped(signedByTaker, slot(taker.publicKey) + 5))).toBe("taker_signature_invalid");
    // The taker's signature with a small-order R, which a cofactored check accepts and the runtime refuses.
    const message = VersionedTransaction.deserialize(base64.decode(quote)).message.serialize();
    const torsion = SMALL_ORDER_ENCODINGS[1] as Uint8Array;
    bytes.set(smallOrderRSignature(taker.secretKey.subarray(0, 32), message, torsion), slot(taker.publicKey));
    expect(refusal(base64.encode(bytes))).toBe("taker_signature_invalid");
  });

  it("refuses a changed resolver signature and a keeper slot filled in", () => {
    const { slot } = layout();
    expect(refusal(flipped(signedByTaker, slot(resolver.publicKey) + 63))).toBe("signature_changed");
    expect(refusal(addSignatures(signedByTaker, keeper))).toBe("signature_changed");
    // Re-signed by the resolver: the same bytes (ed25519 is deterministic), so accepted.
    expect(refusal(addSignatures(signedByTaker, resolver))).toBe("accepted");
  });

  it("refuses garbage", () => {
    expect(refusal("not base64!")).toBe("not_base64");
    expect(refusal(`${signedByTaker.slice(0, -1)}`)).toBe("not_base64");
    expect(refusal("")).toBe("not_a_transaction");
    expect(refusal("AAAA")).toBe("not_a_transaction");
    expect(refusal(base64.encode(new Uint8Array(600).fill(0xff)))).toBe("not_a_transaction");
  });

  it("throws when the quote's own transaction is unreadable or not the taker's", () => {
    expect(() => checkTakerTransaction("AAAA", signedByTaker, takerKey)).toThrow(/cannot be read/);
    expect(() => checkTakerTransaction(quote, signedByTaker, stranger.publicKey.toBase58())).toThrow(/not a signer/);
  });
});
