import { env } from "cloudflare:test";
import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { solanaRpc } from "../../src/chains/solana/rpc";
import { loadConfig } from "../../src/config/load";
import type { SolanaChain } from "../../src/config/schema";
import { SOL } from "../support/ws-client";
import {
  closedAfterEach,
  emptyAndClose,
  freshResolver,
  freshTaker,
  fund,
  keeperRent,
  lamports,
  post,
  settled,
  strikes,
  submitRequoted,
  wonBy,
} from "./token-accounts";

/**
 * The recipient's token account closed for its rent (docs/security.md, "A recipient's token account closed
 * for its rent"). A quote whose recipient's account exists charges no rent for it; the swap still creates
 * it idempotently at the keeper's expense, so a taker that closed it after its quote, keeping the rent, had
 * the keeper pay it. The keeper refuses that swap. The taker here sells cNGN for USDC, to itself, so the
 * recipient's account is its USDC account.
 */

const app = createApp();
const chain = loadConfig(env.RELAY_CONFIG).chains.find((c): c is SolanaChain => c.kind === "solana") as SolanaChain;

const open = closedAfterEach();

describe("a recipient's token account closed for its rent", () => {
  it("closed after its quote, priced as existing: taker:recipient_account_closed, no lamport of the keeper's", async () => {
    const resolver = await freshResolver("recipient-closes");
    open.push(resolver);
    const taker = await freshTaker();
    const submission = await wonBy(app, resolver, taker);
    await emptyAndClose(taker, SOL.usdc, taker.publicKey);
    const keeperBefore = await lamports(chain.keeper);
    const execution = await submitRequoted(app, submission, "taker:recipient_account_closed");
    expect(execution).toMatchObject({ status: "requote", blame: "taker" });
    expect(await strikes(resolver)).toBe(0);
    expect(await lamports(chain.keeper)).toBe(keeperBefore);
  });

  it("new and priced: the swap creates it at the keeper's expense, the rent its quote charged", async () => {
    const resolver = await freshResolver("recipient-new");
    open.push(resolver);
    const taker = Keypair.generate();
    await fund(taker.publicKey, [SOL.cngn]);
    const submission = await wonBy(app, resolver, taker);
    const answer = await post(app, "/v1/executions", submission);
    expect(answer).toMatchObject({ status: 202, body: { status: "submitted" } });
    expect(await settled(app, submission.quoteId)).toMatchObject({ status: "settled" });
    const rent = await solanaRpc<number>(env.TEST_SOLANA_RPC_URL, "getMinimumBalanceForRentExemption", [165]);
    expect(await keeperRent(String(answer.body.txHash))).toBe(BigInt(rent));
    expect(await strikes(resolver)).toBe(0);
  });
});
