import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  getAssociatedTokenAddressSync,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
} from "@solana/spl-token";
import { ComputeBudgetProgram, PublicKey, type VersionedMessage, VersionedTransaction } from "@solana/web3.js";
import { MEMO_PROGRAM } from "../../chains/solana/swap-transaction";
import { swapTransfers } from "../../chains/solana/swap-transfers";
import { readWireBase64 } from "../../chains/solana/wire";
import type { SolanaQuote } from "./relay";

const TOKEN_PROGRAMS = [TOKEN_PROGRAM_ID.toBase58(), TOKEN_2022_PROGRAM_ID.toBase58()];
/** SPL Token's `TransferChecked`; the only token instruction a swap has. */
const TRANSFER_CHECKED = 12;
/** The Associated Token Account program's `CreateIdempotent`. */
const CREATE_IDEMPOTENT = 1;

/**
 * Where a Solana quote's transaction does something its record does not say, in words, or null
 * (docs/local-stack.md, "The taker library"). A taker signs what it was shown or nothing, so before it
 * signs it checks, without trusting the relay's layout, that:
 * - the transaction asks `taker` (base58) to sign, and someone else pays its fee;
 * - every instruction is one a swap has: the compute budget, a token `TransferChecked`, an associated
 *   token account created idempotently and not paid by the taker, and the memo, which carries the quote id;
 * - what leaves the taker is the sell token only, `takerPays` in all;
 * - the recipient's associated account of the buy token gets `received`.
 * Accounts loaded from lookup tables cannot be read without the chain, and the relay uses none: refused.
 */
export function solanaTransactionMismatch(quote: SolanaQuote, taker: string): string | null {
  if (quote.taker !== taker) return `is a quote for ${quote.taker}, not ${taker}`;
  const wire = readWireBase64(quote.transaction);
  if (!wire) return "is not a serialized Solana transaction";
  if (!wire.signers.includes(taker)) return "does not ask the taker to sign";
  if (wire.signers[0] === taker) return "makes the taker pay its fee";
  const { message } = VersionedTransaction.deserialize(wire.bytes);
  if (message.addressTableLookups.length > 0) return "loads accounts from lookup tables";
  const keys = message.staticAccountKeys.map((k) => k.toBase58());
  const unexpected = unexpectedInstruction(message, keys, taker);
  if (unexpected) return unexpected;
  if (!carriesMemo(message, keys, quote.quoteId)) return `does not carry the quote id ${quote.quoteId} in its memo`;

  const transfers = swapTransfers(message, keys);
  const fromTaker = transfers.filter((t) => t.from === taker);
  if (fromTaker.some((t) => t.mint !== quote.sellToken))
    return "moves a token of the taker's other than the sell token";
  const paid = fromTaker.reduce((sum, t) => sum + t.amount, 0n);
  if (paid !== BigInt(quote.takerPays)) return `takes ${paid} of the sell token from the taker, not ${quote.takerPays}`;
  const recipientAccounts = TOKEN_PROGRAMS.map((program) => tokenAccount(quote.recipient, quote.buyToken, program));
  const received = transfers
    .filter((t) => t.mint === quote.buyToken && recipientAccounts.includes(t.destination))
    .reduce((sum, t) => sum + t.amount, 0n);
  if (received !== BigInt(quote.received))
    return `pays the recipient ${received} of the buy token, not ${quote.received}`;
  return null;
}

/** The first top-level instruction that is not one of a swap's kinds, described; null when all are. */
function unexpectedInstruction(message: VersionedMessage, keys: string[], taker: string): string | null {
  for (const [index, ix] of message.compiledInstructions.entries()) {
    const program = keys[ix.programIdIndex] ?? "";
    if (program === ComputeBudgetProgram.programId.toBase58() || program === MEMO_PROGRAM) continue;
    if (TOKEN_PROGRAMS.includes(program) && ix.data[0] === TRANSFER_CHECKED) continue;
    if (
      program === ASSOCIATED_TOKEN_PROGRAM_ID.toBase58() &&
      ix.data.length === 1 &&
      ix.data[0] === CREATE_IDEMPOTENT
    ) {
      const payer = keys[ix.accountKeyIndexes[0] ?? -1];
      if (payer === taker) return `has the taker pay for a token account (instruction ${index})`;
      continue;
    }
    return `has instruction ${index} of program ${program}, which a swap does not`;
  }
  return null;
}

function carriesMemo(message: VersionedMessage, keys: string[], quoteId: string): boolean {
  return message.compiledInstructions.some(
    (ix) => keys[ix.programIdIndex] === MEMO_PROGRAM && Buffer.from(ix.data).toString("utf8") === quoteId,
  );
}

function tokenAccount(owner: string, mint: string, tokenProgram: string): string {
  return getAssociatedTokenAddressSync(
    new PublicKey(mint),
    new PublicKey(owner),
    true,
    new PublicKey(tokenProgram),
  ).toBase58();
}
