import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { solanaRpc } from "../../src/chains/solana/rpc";
import { loadConfig } from "../../src/config/load";
import type { SolanaChain } from "../../src/config/schema";
import { SOL } from "../support/ws-client";
import {
  closedAfterEach,
  emptyAndClose,
  expectNotAsked,
  expectStruck,
  freshResolver,
  freshTaker,
  keeperRent,
  lamports,
  post,
  settled,
  treasury,
  wonBy,
} from "./token-accounts";

/**
 * A resolver's account its sale is paid into (its account of the swap's sell token) closed by the resolver
 * (SPL Token `CloseAccount`, its rent back to a key of its choice) (docs/security.md, "A token account
 * closed for its rent"). The keeper must never pay that account's rent: a resolver without it is not asked,
 * and the swap's creation of it, needed only when it was closed after the inventory read, is paid by the
 * resolver. The taker here sells cNGN for USDC, so the resolver's sale is paid into its cNGN account.
 */

const app = createApp();
const chain = loadConfig(env.RELAY_CONFIG).chains.find((c): c is SolanaChain => c.kind === "solana") as SolanaChain;

const open = closedAfterEach();

describe("a resolver's account its sale is paid into, closed for its rent", () => {
  it("closed before its inventory read: not asked, degraded account_missing", async () => {
    // It claims what the chain shows: USDC to sell, no cNGN (it has no cNGN account).
    const resolver = await freshResolver("closed-sale-account", {
      before: (keypair) => emptyAndClose(keypair, SOL.cngn, keypair.publicKey),
      balances: { [SOL.usdc]: "5000000000", [SOL.cngn]: "0" },
    });
    open.push(resolver);
    await expectNotAsked(app, resolver, "account_missing");
  });

  it("closed after winning, its rent kept: the swap re-creates it at the resolver's expense, none of the keeper's", async () => {
    const resolver = await freshResolver("closes-after-win");
    open.push(resolver);
    const submission = await wonBy(app, resolver, await freshTaker());
    await emptyAndClose(resolver.keypair, SOL.cngn, resolver.keypair.publicKey);
    const resolverBefore = await lamports(resolver.keypair.publicKey.toBase58());
    const answer = await post(app, "/v1/executions", submission);
    expect(answer).toMatchObject({ status: 202, body: { status: "submitted" } });
    expect(await settled(app, submission.quoteId)).toMatchObject({ status: "settled" });
    expect(await keeperRent(String(answer.body.txHash))).toBe(0n);
    // The rent it got back from the close, paid again for the account it closed.
    const rent = await solanaRpc<number>(env.TEST_SOLANA_RPC_URL, "getMinimumBalanceForRentExemption", [165]);
    expect(resolverBefore - (await lamports(resolver.keypair.publicKey.toBase58()))).toBe(BigInt(rent));
  });

  it("closed after winning, its rent sent away: resolver:insufficient_balance, a strike, no lamport of the keeper's", async () => {
    const resolver = await freshResolver("closes-after-win-broke");
    open.push(resolver);
    const submission = await wonBy(app, resolver, await freshTaker());
    await emptyAndClose(resolver.keypair, SOL.cngn, treasury.publicKey);
    expect(await lamports(resolver.keypair.publicKey.toBase58())).toBe(0n);
    const keeperBefore = await lamports(chain.keeper);
    await expectStruck(app, resolver, submission, "resolver:insufficient_balance");
    expect(await lamports(chain.keeper)).toBe(keeperBefore);
  });
});
