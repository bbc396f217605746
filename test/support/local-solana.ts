import { base58 } from "@scure/base";
import {
  createCloseAccountInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
} from "@solana/spl-token";
import { type Keypair, PublicKey, Transaction } from "@solana/web3.js";
import { afterAll, beforeAll, expect } from "vitest";
import { PARTICIPANT_TOKENS } from "../../scripts/lib/solana-harness/genesis";
import { type SolanaHarness, startSolanaHarness } from "../../scripts/lib/solana-harness/server";
import { readLatestBlockhash } from "../../src/chains/solana/blockhash";
import { sendSwap, signAsFeePayer, swapStatuses } from "../../src/chains/solana/settler-rpc";
import { signRequest, withSignature } from "../../src/chains/solana/swap-signatures";
import { buildSwapTransaction } from "../../src/chains/solana/swap-transaction";
import { addSignatures, localSolana, signMessageOf, swapQuote } from "./solana-swap";

/** The local chain (the LiteSVM harness) a test file runs against, and its JSON-RPC address. */
export interface LocalChain {
  harness: SolanaHarness;
  rpc: string;
}

/** Starts the local chain before the file's tests and stops it after them; read it inside a test. */
export function useLocalChain(): LocalChain {
  const local = {} as LocalChain;
  beforeAll(async () => {
    // Slots move only when a test advances them: nothing expires meanwhile.
    local.harness = await startSolanaHarness({ port: 0, slotMs: 3_600_000 });
    local.rpc = local.harness.url;
  });
  afterAll(async () => {
    await local.harness?.stop();
  });
  return local;
}

/** `owner`'s associated token account of `mint`. */
export const ata = (mint: string, owner: PublicKey) => getAssociatedTokenAddressSync(new PublicKey(mint), owner, true);

/** Lands `instructions` in the next slot, the treasury paying, signed by `signer` too. */
export async function land(
  { harness, rpc }: LocalChain,
  signer: Keypair,
  ...instructions: Parameters<Transaction["add"]>
): Promise<void> {
  const treasury = harness.accounts.treasury;
  const { blockhash } = await readLatestBlockhash(rpc);
  const tx = new Transaction({ feePayer: treasury.publicKey, recentBlockhash: blockhash }).add(...instructions);
  tx.sign(treasury, signer);
  expect(await sendSwap(rpc, tx.serialize())).toEqual({ status: "accepted" });
  harness.chain.advance(1);
  const signature = base58.encode(tx.signature ?? new Uint8Array());
  const [status] = await swapStatuses(rpc, [{ signature, lastValidBlockHeight: Number.MAX_SAFE_INTEGER }]);
  expect(status).toMatchObject({ state: "landed" });
}

/** `owner` empties its genesis account of `mint` into the treasury's and closes it, its rent to `rentTo`. */
export function emptyAndClose(local: LocalChain, owner: Keypair, mint: string, rentTo: PublicKey): Promise<void> {
  const account = ata(mint, owner.publicKey);
  const treasury = ata(mint, local.harness.accounts.treasury.publicKey);
  return land(
    local,
    owner,
    createTransferCheckedInstruction(account, new PublicKey(mint), treasury, owner.publicKey, PARTICIPANT_TOKENS, 6),
    createCloseAccountInstruction(account, rentTo, owner.publicKey),
  );
}

/**
 * A swap of `sellAmount` cNGN (1,580 unless given) from `taker` to `resolver` as the keeper receives it:
 * built, signed by the resolver (`quoteTransaction`), then by the taker (`submitted`), and signed by the
 * keeper as fee payer.
 */
export async function signedSwap(
  { harness, rpc }: LocalChain,
  args: { taker: Keypair; resolver: Keypair; sellAmount?: bigint; quoteId: string },
) {
  const sellAmount = args.sellAmount ?? 1_580_000_000n;
  const quote = swapQuote({
    taker: args.taker.publicKey.toBase58(),
    sell: "cNGN",
    sellAmount,
    outputAmount: (sellAmount * 1_000_140n) / 1_580_000_000n,
    quoteId: args.quoteId,
  });
  const { blockhash, lastValidBlockHeight } = await readLatestBlockhash(rpc);
  const resolverKey = args.resolver.publicKey.toBase58();
  const winner = { resolver: resolverKey, amounts: quote.amounts };
  const request = signRequest(buildSwapTransaction(localSolana, quote.terms, winner, blockhash));
  const quoteTransaction = withSignature(request, resolverKey, signMessageOf(request, args.resolver));
  const submitted = addSignatures(quoteTransaction, args.taker);
  return {
    quote,
    quoteTransaction,
    submitted,
    lastValidBlockHeight,
    ...signAsFeePayer(submitted, harness.accounts.keeper),
  };
}
