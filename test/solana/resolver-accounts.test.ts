import { env } from "cloudflare:test";
import {
  createCloseAccountInstruction,
  createFreezeAccountInstruction,
  createTransferCheckedInstruction,
} from "@solana/spl-token";
import { afterEach, describe, expect, it } from "vitest";
import { localSolanaKeypair } from "../../scripts/lib/solana-harness/accounts";
import { createApp } from "../../src/app";
import { solanaRpc } from "../../src/chains/solana/rpc";
import { SOL } from "../support/ws-client";
import type { SolanaBidder } from "./bidder";
import { ata, expectStruck, freshResolver, HELD, land, mint, tokenProgram, treasury, wonBy } from "./token-accounts";

/**
 * A Solana winner whose token account of its leg stops working after its bid (docs/reliability.md,
 * "Blame"): frozen by the mint's freeze authority, or closed by the resolver. The swap fails at the
 * resolver's transfer; the leg is the resolver's, as a short one is, so it is struck. Each test's resolver
 * is a fresh key the treasury funds, so what is frozen or closed here is nobody else's.
 */

const app = createApp();
const taker = localSolanaKeypair("taker:5");

let open: SolanaBidder[] = [];
afterEach(() => {
  for (const b of open) b.socket.close();
  open = [];
});

describe("a Solana winner whose token account stops working after its bid", () => {
  it("frozen by the mint's freeze authority: the resolver's leg, resolver:transfer_failed, a strike", async () => {
    const resolver = await freshResolver("frozen");
    open.push(resolver);
    const submission = await wonBy(app, resolver, taker);
    const usdc = ata(SOL.usdc, resolver.keypair.publicKey);
    await land([createFreezeAccountInstruction(usdc, mint(SOL.usdc), treasury.publicKey, [], tokenProgram)]);
    await expectStruck(app, resolver, submission, "resolver:transfer_failed");
  });

  it("closed by the resolver: the resolver's leg, resolver:insufficient_balance as a short one, a strike", async () => {
    const resolver = await freshResolver("closed");
    open.push(resolver);
    const submission = await wonBy(app, resolver, taker);
    const owner = resolver.keypair.publicKey;
    const usdc = ata(SOL.usdc, owner);
    await land(
      [
        createTransferCheckedInstruction(
          usdc,
          mint(SOL.usdc),
          ata(SOL.usdc, treasury.publicKey),
          owner,
          HELD,
          6,
          [],
          tokenProgram,
        ),
        createCloseAccountInstruction(usdc, treasury.publicKey, owner, [], tokenProgram),
      ],
      resolver.keypair,
    );
    expect(await solanaRpc(env.TEST_SOLANA_RPC_URL, "getAccountInfo", [usdc.toBase58()])).toMatchObject({
      value: null,
    });
    await expectStruck(app, resolver, submission, "resolver:insufficient_balance");
  });
});
