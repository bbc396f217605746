import {
  AuthorityType,
  createAssociatedTokenAccountIdempotentInstruction,
  createSetAuthorityInstruction,
} from "@solana/spl-token";
import { Keypair, PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { localSolanaKeypair } from "../../scripts/lib/solana-harness/accounts";
import { sendSwap, simulateSwap, swapFailureReason, swapStatuses } from "../../src/chains/solana/settler-rpc";
import { ata, land, signedSwap, useLocalChain } from "../support/local-solana";
import { localSolana, mintOf } from "../support/solana-swap";

/**
 * A destination account of a swap given to another key by its owner (docs/reliability.md, "Blame"), on the
 * local chain's real SPL Token and associated token account programs: the swap's idempotent creation of
 * it fails (`Custom(0)`, `InvalidOwner`), and the keeper blames the owner, simulated or landed.
 */

const local = useLocalChain();

const USDC = mintOf(localSolana, "USDC");
const CNGN = mintOf(localSolana, "cNGN");

/** `owner`'s account of `mint`, created if missing, then given to a fresh key (SPL Token `SetAuthority`). */
const giveAway = (owner: Keypair, mint: string) =>
  land(
    local,
    owner,
    createAssociatedTokenAccountIdempotentInstruction(
      local.harness.accounts.treasury.publicKey,
      ata(mint, owner.publicKey),
      owner.publicKey,
      new PublicKey(mint),
    ),
    createSetAuthorityInstruction(
      ata(mint, owner.publicKey),
      owner.publicKey,
      AuthorityType.AccountOwner,
      Keypair.generate().publicKey,
    ),
  );

describe("a swap's destination account given away by its owner", () => {
  it("the resolver's account its sale is paid into: resolver:transfer_failed, simulated or landed", async () => {
    const resolver = localSolanaKeypair("test:gave-sale-account");
    await giveAway(resolver, CNGN);
    const swap = await signedSwap(local, {
      taker: local.harness.accounts.takers[2] as Keypair,
      resolver: resolver,
      quoteId: "q_given_away_sale",
    });
    expect(await simulateSwap(local.rpc, swap.raw)).toMatchObject({ ok: false, reason: "resolver:transfer_failed" });
    // Landed with that error (sent without preflight), it is blamed the same way, from the chain's state.
    expect(await sendSwap(local.rpc, swap.raw)).toEqual({ status: "accepted" });
    local.harness.chain.advance(1);
    const [landed] = await swapStatuses(local.rpc, [swap]);
    if (landed?.state !== "reverted") throw new Error(`not reverted: ${landed?.state}`);
    expect(landed.err).toEqual({ InstructionError: [2, { Custom: 0 }] });
    expect(await swapFailureReason(local.rpc, swap.raw, landed.err, [])).toBe("resolver:transfer_failed");
  });

  it("the recipient's account of the output: taker:recipient_refused", async () => {
    const taker = localSolanaKeypair("test:gave-output-account");
    await giveAway(taker, USDC);
    const swap = await signedSwap(local, {
      taker: taker,
      resolver: local.harness.accounts.resolvers[2] as Keypair,
      quoteId: "q_given_away_output",
    });
    expect(await simulateSwap(local.rpc, swap.raw)).toMatchObject({ ok: false, reason: "taker:recipient_refused" });
  });
});
