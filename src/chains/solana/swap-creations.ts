import { ASSOCIATED_TOKEN_PROGRAM_ID } from "@solana/spl-token";
import type { VersionedMessage } from "@solana/web3.js";

/** The associated token account program's `CreateIdempotent` instruction tag. */
const CREATE_IDEMPOTENT = 1;
const ASSOCIATED_TOKEN_PROGRAM = ASSOCIATED_TOKEN_PROGRAM_ID.toBase58();

/** One `CreateIdempotent` of a swap transaction: a destination account made where it is missing. */
export interface SwapCreation {
  /** The instruction's index in the message, as `InstructionError` counts. */
  index: number;
  /** The associated token account created. */
  account: string;
  /** Who pays its rent when it is missing: the keeper, or the resolver for its own account. */
  payer: string;
  /** The wallet it is derived for: whose account it is. */
  owner: string;
  mint: string;
}

/**
 * The `CreateIdempotent` instructions of a message, in order (`accountKeys`: the static keys, then any
 * loaded from lookup tables); their accounts are payer, account, owner, mint, system and token program.
 * For a swap built by `buildSwapTransaction` they create the legs' destinations (src/chains/solana/swap-transaction.ts).
 * A plain `Create` is not listed: it fails for any account that exists, so its failure names nobody.
 */
export function swapCreations(message: VersionedMessage, accountKeys: string[]): SwapCreation[] {
  const creations: SwapCreation[] = [];
  message.compiledInstructions.forEach((ix, index) => {
    if (accountKeys[ix.programIdIndex] !== ASSOCIATED_TOKEN_PROGRAM || ix.data[0] !== CREATE_IDEMPOTENT) return;
    const [payer, account, owner, mint] = ix.accountKeyIndexes.map((i) => accountKeys[i]);
    if (!payer || !account || !owner || !mint) return;
    creations.push({ index, account, payer, owner, mint });
  });
  return creations;
}
