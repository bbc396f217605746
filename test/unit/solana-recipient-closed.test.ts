import { base58 } from "@scure/base";
import {
  createCloseAccountInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
} from "@solana/spl-token";
import { type Keypair, PublicKey, Transaction } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PARTICIPANT_TOKENS } from "../../scripts/lib/solana-harness/genesis";
import { type SolanaHarness, startSolanaHarness } from "../../scripts/lib/solana-harness/server";
import { readLatestBlockhash } from "../../src/chains/solana/blockhash";
import { solanaRpc } from "../../src/chains/solana/rpc";
import {
  recipientAccountClosed,
  sendSwap,
  signAsFeePayer,
  swapReceipt,
  swapStatuses,
  unpricedRecipientCreation,
} from "../../src/chains/solana/settler-rpc";
import { signRequest, withSignature } from "../../src/chains/solana/swap-signatures";
import { buildSwapTransaction } from "../../src/chains/solana/swap-transaction";
import { addSignatures, localSolana, mintOf, signMessageOf, swapQuote } from "../support/solana-swap";

/**
 * A recipient's token account closed by its owner after a quote that priced it as existing (docs/security.md,
 * "A recipient's token account closed for its rent"), on the local chain's real SPL Token and associated
 * token account programs: the keeper's pre-flight read sees it missing; a swap that lands anyway (closed
 * after that read) shows the keeper's rent and the account it created, the evidence the keeper logs.
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

const USDC = mintOf(localSolana, "USDC");
const ata = (mint: string, owner: PublicKey) => getAssociatedTokenAddressSync(new PublicKey(mint), owner, true);

/** `owner` empties its genesis USDC account into the treasury's and closes it, its rent back to itself. */
async function closeUsdcAccount(owner: Keypair): Promise<void> {
  const treasury = harness.accounts.treasury;
  const account = ata(USDC, owner.publicKey);
  const { blockhash } = await readLatestBlockhash(rpc);
  const tx = new Transaction({ feePayer: treasury.publicKey, recentBlockhash: blockhash }).add(
    createTransferCheckedInstruction(
      account,
      new PublicKey(USDC),
      ata(USDC, treasury.publicKey),
      owner.publicKey,
      PARTICIPANT_TOKENS,
      6,
    ),
    createCloseAccountInstruction(account, owner.publicKey, owner.publicKey),
  );
  tx.sign(treasury, owner);
  expect(await sendSwap(rpc, tx.serialize())).toEqual({ status: "accepted" });
  harness.chain.advance(1);
  const signature = base58.encode(tx.signature ?? new Uint8Array());
  const [status] = await swapStatuses(rpc, [{ signature, lastValidBlockHeight: Number.MAX_SAFE_INTEGER }]);
  expect(status).toMatchObject({ state: "landed" });
}

describe("a recipient's account closed after a quote that priced it as existing", () => {
  it("is seen missing before the simulation; landed anyway, the keeper paid its rent and the receipt shows it", async () => {
    const taker = harness.accounts.takers[2] as Keypair;
    const resolver = harness.accounts.resolvers[2] as Keypair;
    const keeper = harness.accounts.keeper.publicKey.toBase58();
    const quote = swapQuote({
      taker: taker.publicKey.toBase58(),
      sell: "cNGN",
      sellAmount: 1_580_000_000n,
      outputAmount: 1_000_140n,
      quoteId: "q_recipient_closed",
    });
    const { blockhash } = await readLatestBlockhash(rpc);
    const resolverKey = resolver.publicKey.toBase58();
    const request = signRequest(
      buildSwapTransaction(localSolana, quote.terms, { resolver: resolverKey, amounts: quote.amounts }, blockhash),
    );
    const signed = addSignatures(withSignature(request, resolverKey, signMessageOf(request, resolver)), taker);
    const { raw, signature } = signAsFeePayer(signed, harness.accounts.keeper);
    const recipientAccount = ata(USDC, taker.publicKey).toBase58();
    expect(unpricedRecipientCreation(raw, keeper, false)).toBe(recipientAccount);

    expect(await recipientAccountClosed(rpc, raw, keeper, false)).toBe(false);
    await closeUsdcAccount(taker);
    expect(await recipientAccountClosed(rpc, raw, keeper, false)).toBe(true);
    // A quote that charged its rent: the keeper creates it, priced.
    expect(await recipientAccountClosed(rpc, raw, keeper, true)).toBe(false);

    // Closed after the pre-flight's read: the swap lands and re-creates it at the keeper's expense.
    expect(await sendSwap(rpc, raw)).toEqual({ status: "accepted" });
    harness.chain.advance(1);
    const receipt = await swapReceipt(rpc, signature);
    const rent = BigInt(await solanaRpc<number>(rpc, "getMinimumBalanceForRentExemption", [165]));
    expect(receipt).toMatchObject({ status: "success", created: [recipientAccount] });
    expect((receipt?.keeperSpent ?? 0n) - (receipt?.fee ?? 0n)).toBe(rent);
  });
});
