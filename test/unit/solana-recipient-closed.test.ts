import type { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { solanaRpc } from "../../src/chains/solana/rpc";
import {
  recipientAccountClosed,
  sendSwap,
  swapReceipt,
  unpricedRecipientCreation,
} from "../../src/chains/solana/settler-rpc";
import { ata, emptyAndClose, signedSwap, useLocalChain } from "../support/local-solana";
import { localSolana, mintOf } from "../support/solana-swap";

/**
 * A recipient's token account closed by its owner after a quote that priced it as existing (docs/security.md,
 * "A recipient's token account closed for its rent"), on the local chain's real SPL Token and associated
 * token account programs: the keeper's pre-flight read sees it missing; a swap that lands anyway (closed
 * after that read) shows the keeper's rent and the account it created, the evidence the keeper logs.
 */

const local = useLocalChain();

const USDC = mintOf(localSolana, "USDC");

describe("a recipient's account closed after a quote that priced it as existing", () => {
  it("is seen missing before the simulation; landed anyway, the keeper paid its rent and the receipt shows it", async () => {
    const taker = local.harness.accounts.takers[2] as Keypair;
    const resolver = local.harness.accounts.resolvers[2] as Keypair;
    const keeper = local.harness.accounts.keeper.publicKey.toBase58();
    const { raw, signature } = await signedSwap(local, { taker, resolver, quoteId: "q_recipient_closed" });
    const recipientAccount = ata(USDC, taker.publicKey).toBase58();
    expect(unpricedRecipientCreation(raw, keeper, false)).toBe(recipientAccount);

    expect(await recipientAccountClosed(local.rpc, raw, keeper, false)).toBe(false);
    await emptyAndClose(local, taker, USDC, taker.publicKey);
    expect(await recipientAccountClosed(local.rpc, raw, keeper, false)).toBe(true);
    // A quote that charged its rent: the keeper creates it, priced.
    expect(await recipientAccountClosed(local.rpc, raw, keeper, true)).toBe(false);

    // Closed after the pre-flight's read: the swap lands and re-creates it at the keeper's expense.
    expect(await sendSwap(local.rpc, raw)).toEqual({ status: "accepted" });
    local.harness.chain.advance(1);
    const receipt = await swapReceipt(local.rpc, signature);
    const rent = BigInt(await solanaRpc<number>(local.rpc, "getMinimumBalanceForRentExemption", [165]));
    expect(receipt).toMatchObject({ status: "success", created: [recipientAccount] });
    expect((receipt?.keeperSpent ?? 0n) - (receipt?.fee ?? 0n)).toBe(rent);
  });
});
