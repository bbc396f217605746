import { env } from "cloudflare:test";
import { base64 } from "@scure/base";
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createCloseAccountInstruction,
  createFreezeAccountInstruction,
  createMintToInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
} from "@solana/spl-token";
import { Keypair, PublicKey, Transaction, type TransactionInstruction, VersionedTransaction } from "@solana/web3.js";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, describe, expect, it } from "vitest";
import { localSolanaKeypair } from "../../scripts/lib/solana-harness/accounts";
import { createApp } from "../../src/app";
import { solanaRpc } from "../../src/chains/solana/rpc";
import { SOL } from "../support/ws-client";
import { marketSellAmount, type SolanaBidder, solanaBidder } from "./bidder";

/**
 * A Solana winner whose token account of its leg stops working after its bid (docs/reliability.md,
 * "Blame"): frozen by the mint's freeze authority, or closed by the resolver. The swap fails at the
 * resolver's transfer; the leg is the resolver's, as a short one is, so it is struck. Each test's resolver
 * is a fresh key the treasury (mint and freeze authority of the local tokens) funds, so what is frozen or
 * closed here is nobody else's.
 */

const app = createApp();
const treasury = localSolanaKeypair("treasury");
const taker = localSolanaKeypair("taker:5");
const program = new PublicKey("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
const mint = (address: string) => new PublicKey(address);
const ata = (token: string, owner: PublicKey) => getAssociatedTokenAddressSync(mint(token), owner, true, program);

const request = async (path: string, body: unknown) => {
  const res = await app.request(
    path,
    { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) },
    env,
  );
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

/** Lands `instructions` on the local chain, the treasury paying the fee, signed by `signers` too. */
async function land(instructions: TransactionInstruction[], ...signers: Keypair[]): Promise<void> {
  const { value } = await solanaRpc<{ value: { blockhash: string } }>(env.TEST_SOLANA_RPC_URL, "getLatestBlockhash", [
    { commitment: "confirmed" },
  ]);
  const tx = new Transaction({ feePayer: treasury.publicKey, recentBlockhash: value.blockhash }).add(...instructions);
  tx.sign(treasury, ...signers);
  await solanaRpc(env.TEST_SOLANA_RPC_URL, "sendTransaction", [base64.encode(tx.serialize()), { encoding: "base64" }]);
  await fetch(`${env.TEST_SOLANA_PROXY_URL}/__advance`, { method: "POST", body: JSON.stringify({ slots: 1 }) });
}

const HELD = 10_000_000_000n;

/** A fresh resolver key holding 10,000 of each token, connected and bidding on the Solana corridor. */
async function freshResolver(name: string): Promise<SolanaBidder> {
  const keypair = Keypair.generate();
  await land(
    [SOL.usdc, SOL.cngn].flatMap((token) => [
      createAssociatedTokenAccountIdempotentInstruction(
        treasury.publicKey,
        ata(token, keypair.publicKey),
        keypair.publicKey,
        mint(token),
        program,
      ),
      createMintToInstruction(mint(token), ata(token, keypair.publicKey), treasury.publicKey, HELD, [], program),
    ]),
  );
  return solanaBidder(0, name, { account: privateKeyToAccount(generatePrivateKey()), keypair });
}

let open: SolanaBidder[] = [];
afterEach(() => {
  for (const b of open) b.socket.close();
  open = [];
});

/**
 * A quote `resolver` wins and signs, for the taker: the cNGN the band prices at 1 USDC, for 1 USDC. Its
 * blockhash must still be valid: the files of this project share the relay's modules, so a file before this
 * one that moved the chain 200 slots at once leaves the relay holding a blockhash the chain has passed,
 * until its next read (every 5 s); the quote is then asked again.
 */
async function wonBy(resolver: SolanaBidder) {
  for (let attempt = 0; ; attempt++) {
    const quote = await quoteWonBy(resolver);
    const { recentBlockhash } = VersionedTransaction.deserialize(base64.decode(quote.transaction)).message;
    const { value } = await solanaRpc<{ value: boolean }>(env.TEST_SOLANA_RPC_URL, "isBlockhashValid", [
      recentBlockhash,
      { commitment: "confirmed" },
    ]);
    if (value || attempt >= 2) return quote;
    await new Promise((r) => setTimeout(r, 5_500));
  }
}

async function quoteWonBy(resolver: SolanaBidder) {
  const pending = request("/v1/quotes", {
    chainId: SOL.chainId,
    sellToken: SOL.cngn,
    buyToken: SOL.usdc,
    sellAmount: await marketSellAmount(app),
    taker: taker.publicKey.toBase58(),
  });
  resolver.bid(await resolver.nextRfq(), 1_000_000n);
  resolver.sign(await resolver.nextSign());
  const { status, body } = await pending;
  expect(status).toBe(200);
  const quote = body as { quoteId: string; transaction: string; resolver: { solanaAddress: string } };
  expect(quote.resolver.solanaAddress).toBe(resolver.keypair.publicKey.toBase58());
  const tx = VersionedTransaction.deserialize(base64.decode(quote.transaction));
  tx.sign([taker]);
  return { quoteId: quote.quoteId, transaction: base64.encode(tx.serialize()) };
}

const strikes = async (resolver: SolanaBidder) =>
  (
    await env.DB.prepare("SELECT strikes FROM resolvers WHERE address = ?")
      .bind(resolver.account.address.toLowerCase())
      .first<{ strikes: number }>()
  )?.strikes ?? 0;

/** The taker submits; the keeper's simulation fails at the resolver's leg, blamed on it, and it is struck. */
async function expectStruck(
  resolver: SolanaBidder,
  submission: { quoteId: string; transaction: string },
  reason: string,
) {
  const answer = await request("/v1/executions", submission);
  expect(answer).toMatchObject({ status: 200, body: { status: "requote", reason } });
  const execution = await app.request(`/v1/executions/${answer.body.executionId}`, {}, env);
  expect(await execution.json()).toMatchObject({ status: "requote", reason, blame: "resolver" });
  expect(await strikes(resolver)).toBe(1);
  expect(await resolver.socket.next("error")).toMatchObject({ code: "strike" });
}

describe("a Solana winner whose token account stops working after its bid", () => {
  it("frozen by the mint's freeze authority: the resolver's leg, resolver:transfer_failed, a strike", async () => {
    const resolver = await freshResolver("frozen");
    open.push(resolver);
    const submission = await wonBy(resolver);
    const usdc = ata(SOL.usdc, resolver.keypair.publicKey);
    await land([createFreezeAccountInstruction(usdc, mint(SOL.usdc), treasury.publicKey, [], program)]);
    await expectStruck(resolver, submission, "resolver:transfer_failed");
  });

  it("closed by the resolver: the resolver's leg, resolver:insufficient_balance as a short one, a strike", async () => {
    const resolver = await freshResolver("closed");
    open.push(resolver);
    const submission = await wonBy(resolver);
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
          program,
        ),
        createCloseAccountInstruction(usdc, treasury.publicKey, owner, [], program),
      ],
      resolver.keypair,
    );
    expect(await solanaRpc(env.TEST_SOLANA_RPC_URL, "getAccountInfo", [usdc.toBase58()])).toMatchObject({
      value: null,
    });
    await expectStruck(resolver, submission, "resolver:insufficient_balance");
  });
});
