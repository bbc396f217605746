import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "@solana/spl-token";
import type { VersionedMessage } from "@solana/web3.js";

/** SPL Token's `TransferChecked` instruction tag (the same in Token-2022). */
const TRANSFER_CHECKED = 12;
const TOKEN_PROGRAMS = new Set([TOKEN_PROGRAM_ID.toBase58(), TOKEN_2022_PROGRAM_ID.toBase58()]);

/** One `TransferChecked` of a swap transaction: a leg, as the transaction itself spells it. */
export interface SwapTransfer {
  /** The instruction's index in the message, as `InstructionError` counts. */
  index: number;
  /** The source account's owner, who signs for it. */
  from: string;
  source: string;
  destination: string;
  mint: string;
  amount: bigint;
}

/**
 * The `TransferChecked` instructions of a message, in order (`accountKeys`: the static keys, then any
 * loaded from lookup tables). For a swap built by `buildSwapTransaction` they are the legs of
 * `swapLegs`, in its order, or of `makerLegs`, maker by maker: the first is always `proceeds`, so its `from`
 * is the taker, and a later leg is the taker's (a sale to the next maker, or the fee or the gas fee in the
 * sell token) or a resolver's (a maker's).
 */
export function swapTransfers(message: VersionedMessage, accountKeys: string[]): SwapTransfer[] {
  const transfers: SwapTransfer[] = [];
  message.compiledInstructions.forEach((ix, index) => {
    const program = accountKeys[ix.programIdIndex];
    const data = ix.data;
    if (!program || !TOKEN_PROGRAMS.has(program) || data[0] !== TRANSFER_CHECKED || data.length < 10) return;
    const [source, mint, destination, from] = ix.accountKeyIndexes.map((i) => accountKeys[i]);
    if (!source || !mint || !destination || !from) return;
    const amount = new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(1, true);
    transfers.push({ index, from, source, destination, mint, amount });
  });
  return transfers;
}
