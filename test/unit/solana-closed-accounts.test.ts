import { type Keypair, type PublicKey, SystemProgram } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { solanaRpc } from "../../src/chains/solana/rpc";
import {
  sendSwap,
  simulateSwap,
  swapFailureReason,
  swapReceipt,
  swapStatuses,
} from "../../src/chains/solana/settler-rpc";
import { emptyAndClose, land, signedSwap, useLocalChain } from "../support/local-solana";
import { localSolana, mintOf } from "../support/solana-swap";

/**
 * A resolver's account its sale is paid into, closed by the resolver after its inventory read
 * (docs/security.md, "A token account closed for its rent"), on the local chain's real SPL Token and
 * associated token account programs: the swap re-creates it with the resolver as payer, so the keeper pays
 * no rent; a resolver short of that rent fails the swap at the creation, blamed on it, simulated or landed.
 */

const local = useLocalChain();

const CNGN = mintOf(localSolana, "cNGN");

const lamports = async (key: PublicKey) =>
  BigInt(
    (await solanaRpc<{ value: number }>(local.rpc, "getBalance", [key.toBase58(), { commitment: "confirmed" }])).value,
  );

describe("a swap whose resolver closed the account its sale is paid into", () => {
  it("re-creates it at the resolver's expense: the keeper spends its fee alone", async () => {
    const resolver = local.harness.accounts.resolvers[0] as Keypair;
    await emptyAndClose(local, resolver, CNGN, resolver.publicKey);
    const before = await lamports(resolver.publicKey);
    const swap = await signedSwap(local, {
      taker: local.harness.accounts.takers[0] as Keypair,
      resolver: resolver,
      quoteId: "q_closed_sale_paid",
    });
    expect(await simulateSwap(local.rpc, swap.raw)).toMatchObject({ ok: true });
    expect(await sendSwap(local.rpc, swap.raw)).toEqual({ status: "accepted" });
    local.harness.chain.advance(1);
    const receipt = await swapReceipt(local.rpc, swap.signature);
    expect(receipt).toMatchObject({ status: "success" });
    // The keeper's lamports before less after: the network fee, no rent (before: the fee and 2,039,280).
    expect(receipt?.keeperSpent).toBe(receipt?.fee);
    const rent = await solanaRpc<number>(local.rpc, "getMinimumBalanceForRentExemption", [165]);
    expect(before - (await lamports(resolver.publicKey))).toBe(BigInt(rent));
  });

  it("a resolver short of the rent: resolver:insufficient_balance, simulated or landed", async () => {
    const resolver = local.harness.accounts.resolvers[1] as Keypair;
    // Its rent and every lamport it holds go elsewhere.
    const treasury = local.harness.accounts.treasury.publicKey;
    await emptyAndClose(local, resolver, CNGN, treasury);
    const held = Number(await lamports(resolver.publicKey));
    await land(
      local,
      resolver,
      SystemProgram.transfer({ fromPubkey: resolver.publicKey, toPubkey: treasury, lamports: held }),
    );
    expect(await lamports(resolver.publicKey)).toBe(0n);
    const swap = await signedSwap(local, {
      taker: local.harness.accounts.takers[1] as Keypair,
      resolver: resolver,
      quoteId: "q_closed_sale_short",
    });
    expect(await simulateSwap(local.rpc, swap.raw)).toMatchObject({
      ok: false,
      reason: "resolver:insufficient_balance",
    });
    // Landed with that error (sent without preflight), it is blamed the same way, from the transaction.
    expect(await sendSwap(local.rpc, swap.raw)).toEqual({ status: "accepted" });
    local.harness.chain.advance(1);
    const [landed] = await swapStatuses(local.rpc, [swap]);
    if (landed?.state !== "reverted") throw new Error(`not reverted: ${landed?.state}`);
    expect(landed.err).toEqual({ InstructionError: [2, { Custom: 1 }] });
    expect(await swapFailureReason(local.rpc, swap.raw, landed.err, [])).toBe("resolver:insufficient_balance");
  });
});
