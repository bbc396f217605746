import { base58 } from "@scure/base";
import {
  createCloseAccountInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
} from "@solana/spl-token";
import { type Keypair, PublicKey, SystemProgram, Transaction } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PARTICIPANT_TOKENS } from "../../scripts/lib/solana-harness/genesis";
import { type SolanaHarness, startSolanaHarness } from "../../scripts/lib/solana-harness/server";
import { readLatestBlockhash } from "../../src/chains/solana/blockhash";
import { solanaRpc } from "../../src/chains/solana/rpc";
import {
  sendSwap,
  signAsFeePayer,
  simulateSwap,
  swapFailureReason,
  swapReceipt,
  swapStatuses,
} from "../../src/chains/solana/settler-rpc";
import { signRequest, withSignature } from "../../src/chains/solana/swap-signatures";
import { buildSwapTransaction } from "../../src/chains/solana/swap-transaction";
import { addSignatures, localSolana, mintOf, signMessageOf, swapQuote } from "../support/solana-swap";

/**
 * A resolver's account its sale is paid into, closed by the resolver after its inventory read
 * (docs/security.md, "A token account closed for its rent"), on the local chain's real SPL Token and
 * associated token account programs: the swap re-creates it with the resolver as payer, so the keeper pays
 * no rent; a resolver short of that rent fails the swap at the creation, blamed on it, simulated or landed.
 */

let harness: SolanaHarness;
let rpc: string;

beforeAll(async () => {
  // Slots move only when a test advances them: nothing expires meanwhile.
  harness = await startSolanaHarness({ port: 0, slotMs: 3_600_000 });
  rpc = harness.url;
});

afterAll(async () => {
  await harness?.stop();
});

const CNGN = mintOf(localSolana, "cNGN");
const ata = (mint: string, owner: PublicKey) => getAssociatedTokenAddressSync(new PublicKey(mint), owner, true);

/** Lands `instructions` in the next slot, the treasury paying, signed by `signer` too. */
async function land(signer: Keypair, ...instructions: Parameters<Transaction["add"]>): Promise<void> {
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

/** `owner` empties its genesis cNGN account into the treasury's and closes it, its rent to `rentTo`. */
const closeSaleAccount = (owner: Keypair, rentTo: PublicKey) => {
  const account = ata(CNGN, owner.publicKey);
  const treasury = ata(CNGN, harness.accounts.treasury.publicKey);
  return land(
    owner,
    createTransferCheckedInstruction(account, new PublicKey(CNGN), treasury, owner.publicKey, PARTICIPANT_TOKENS, 6),
    createCloseAccountInstruction(account, rentTo, owner.publicKey),
  );
};

const lamports = async (key: PublicKey) =>
  BigInt((await solanaRpc<{ value: number }>(rpc, "getBalance", [key.toBase58(), { commitment: "confirmed" }])).value);

/** A swap selling `taker`'s cNGN to `resolver`, signed by both and by the keeper as fee payer. */
async function signedSwap(taker: Keypair, resolver: Keypair, quoteId: string) {
  const quote = swapQuote({
    taker: taker.publicKey.toBase58(),
    sell: "cNGN",
    sellAmount: 1_580_000_000n,
    outputAmount: 1_000_140n,
    quoteId,
  });
  const { blockhash, lastValidBlockHeight } = await readLatestBlockhash(rpc);
  const resolverKey = resolver.publicKey.toBase58();
  const winner = { resolver: resolverKey, amounts: quote.amounts };
  const request = signRequest(buildSwapTransaction(localSolana, quote.terms, winner, blockhash));
  const signed = addSignatures(withSignature(request, resolverKey, signMessageOf(request, resolver)), taker);
  return { lastValidBlockHeight, ...signAsFeePayer(signed, harness.accounts.keeper) };
}

describe("a swap whose resolver closed the account its sale is paid into", () => {
  it("re-creates it at the resolver's expense: the keeper spends its fee alone", async () => {
    const resolver = harness.accounts.resolvers[0] as Keypair;
    await closeSaleAccount(resolver, resolver.publicKey);
    const before = await lamports(resolver.publicKey);
    const swap = await signedSwap(harness.accounts.takers[0] as Keypair, resolver, "q_closed_sale_paid");
    expect(await simulateSwap(rpc, swap.raw)).toMatchObject({ ok: true });
    expect(await sendSwap(rpc, swap.raw)).toEqual({ status: "accepted" });
    harness.chain.advance(1);
    const receipt = await swapReceipt(rpc, swap.signature);
    expect(receipt).toMatchObject({ status: "success" });
    // The keeper's lamports before less after: the network fee, no rent (before: the fee and 2,039,280).
    expect(receipt?.keeperSpent).toBe(receipt?.fee);
    const rent = await solanaRpc<number>(rpc, "getMinimumBalanceForRentExemption", [165]);
    expect(before - (await lamports(resolver.publicKey))).toBe(BigInt(rent));
  });

  it("a resolver short of the rent: resolver:insufficient_balance, simulated or landed", async () => {
    const resolver = harness.accounts.resolvers[1] as Keypair;
    // Its rent and every lamport it holds go elsewhere.
    const treasury = harness.accounts.treasury.publicKey;
    await closeSaleAccount(resolver, treasury);
    const held = Number(await lamports(resolver.publicKey));
    await land(
      resolver,
      SystemProgram.transfer({ fromPubkey: resolver.publicKey, toPubkey: treasury, lamports: held }),
    );
    expect(await lamports(resolver.publicKey)).toBe(0n);
    const swap = await signedSwap(harness.accounts.takers[1] as Keypair, resolver, "q_closed_sale_short");
    expect(await simulateSwap(rpc, swap.raw)).toMatchObject({ ok: false, reason: "resolver:insufficient_balance" });
    // Landed with that error (sent without preflight), it is blamed the same way, from the transaction.
    expect(await sendSwap(rpc, swap.raw)).toEqual({ status: "accepted" });
    harness.chain.advance(1);
    const [landed] = await swapStatuses(rpc, [swap]);
    if (landed?.state !== "reverted") throw new Error(`not reverted: ${landed?.state}`);
    expect(landed.err).toEqual({ InstructionError: [2, { Custom: 1 }] });
    expect(await swapFailureReason(rpc, swap.raw, landed.err, [])).toBe("resolver:insufficient_balance");
  });
});
