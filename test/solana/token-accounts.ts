import { env, runDurableObjectAlarm } from "cloudflare:test";
import { base64 } from "@scure/base";
import {
  AuthorityType,
  createAssociatedTokenAccountIdempotentInstruction,
  createCloseAccountInstruction,
  createMintToInstruction,
  createSetAuthorityInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
} from "@solana/spl-token";
import { Keypair, PublicKey, Transaction, type TransactionInstruction, VersionedTransaction } from "@solana/web3.js";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, expect } from "vitest";
import { localSolanaKeypair } from "../../scripts/lib/solana-harness/accounts";
import type { createApp } from "../../src/app";
import { solanaRpc } from "../../src/chains/solana/rpc";
import { chainKeeperStub } from "../../src/objects";
import type { Quote } from "../../src/schemas/quote";
import type { Node } from "../../src/schemas/resolvers";
import { eventually, getJson, SOL } from "../support/ws-client";
import { marketSellAmount, type SolanaBidder, solanaBidder } from "./bidder";

/**
 * What the tests of a party's own token accounts share: fresh keys the treasury (mint and freeze authority
 * of the local tokens) funds, so what a test freezes, closes or gives away is nobody else's; transactions
 * landed on the local chain; and a quote one resolver wins.
 */

type App = ReturnType<typeof createApp>;

export const treasury = localSolanaKeypair("treasury");
export const tokenProgram = new PublicKey("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
export const mint = (address: string) => new PublicKey(address);
/** `owner`'s associated token account of `token`. */
export const ata = (token: string, owner: PublicKey) =>
  getAssociatedTokenAddressSync(mint(token), owner, true, tokenProgram);

export const post = async (app: App, path: string, body: unknown) => {
  const res = await app.request(
    path,
    { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) },
    env,
  );
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

/** Lands `instructions` on the local chain, the treasury paying the fee, signed by `signers` too. */
export async function land(instructions: TransactionInstruction[], ...signers: Keypair[]): Promise<void> {
  const { value } = await solanaRpc<{ value: { blockhash: string } }>(env.TEST_SOLANA_RPC_URL, "getLatestBlockhash", [
    { commitment: "confirmed" },
  ]);
  const tx = new Transaction({ feePayer: treasury.publicKey, recentBlockhash: value.blockhash }).add(...instructions);
  tx.sign(treasury, ...signers);
  await solanaRpc(env.TEST_SOLANA_RPC_URL, "sendTransaction", [base64.encode(tx.serialize()), { encoding: "base64" }]);
  await fetch(`${env.TEST_SOLANA_PROXY_URL}/__advance`, { method: "POST", body: JSON.stringify({ slots: 1 }) });
}

/** What `fund` mints of each token: 10,000. */
export const HELD = 10_000_000_000n;

const createAccount = (owner: PublicKey, token: string) =>
  createAssociatedTokenAccountIdempotentInstruction(
    treasury.publicKey,
    ata(token, owner),
    owner,
    mint(token),
    tokenProgram,
  );

/** Creates `owner`'s account of each of `tokens` and mints HELD into it. */
export const fund = (owner: PublicKey, tokens: readonly string[]) =>
  land(
    tokens.flatMap((token) => [
      createAccount(owner, token),
      createMintToInstruction(mint(token), ata(token, owner), treasury.publicKey, HELD, [], tokenProgram),
    ]),
  );

/** Creates `owner`'s account of each of `tokens`, holding nothing. */
export const openEmpty = (owner: PublicKey, tokens: readonly string[]) =>
  land(tokens.map((token) => createAccount(owner, token)));

/** `owner` gives its account of `token` to a fresh key (SPL Token `SetAuthority`, `AccountOwner`). */
export const giveAway = (owner: Keypair, token: string) =>
  land(
    [
      createSetAuthorityInstruction(
        ata(token, owner.publicKey),
        owner.publicKey,
        AuthorityType.AccountOwner,
        Keypair.generate().publicKey,
        [],
        tokenProgram,
      ),
    ],
    owner,
  );

/** `owner` empties its account of `token` (HELD) into the treasury's and closes it, its rent to `rentTo`. */
export const emptyAndClose = (owner: Keypair, token: string, rentTo: PublicKey) => {
  const account = ata(token, owner.publicKey);
  return land(
    [
      createTransferCheckedInstruction(
        account,
        mint(token),
        ata(token, treasury.publicKey),
        owner.publicKey,
        HELD,
        6,
        [],
        tokenProgram,
      ),
      createCloseAccountInstruction(account, rentTo, owner.publicKey, [], tokenProgram),
    ],
    owner,
  );
};

/** A fresh taker key holding 10,000 of each token, so each of its accounts exists. */
export async function freshTaker(): Promise<Keypair> {
  const taker = Keypair.generate();
  await fund(taker.publicKey, [SOL.usdc, SOL.cngn]);
  return taker;
}

/** The bidders a test pushes here, their sockets closed after each test. */
export function closedAfterEach(): SolanaBidder[] {
  const open: SolanaBidder[] = [];
  afterEach(async () => {
    for (const b of open) b.socket.close();
    await Promise.all(open.map((b) => b.socket.closed));
    open.length = 0;
  });
  return open;
}

/**
 * A fresh resolver key holding 10,000 of each token, connected and bidding on the Solana corridor;
 * `before` runs on its key once funded and before it connects; `balances` replaces what it claims of a token.
 */
export async function freshResolver(
  name: string,
  options: { before?: (keypair: Keypair) => Promise<void>; balances?: Record<string, string> } = {},
): Promise<SolanaBidder> {
  const keypair = Keypair.generate();
  await fund(keypair.publicKey, [SOL.usdc, SOL.cngn]);
  await options.before?.(keypair);
  const account = privateKeyToAccount(generatePrivateKey());
  return solanaBidder(0, name, { account, keypair, ...(options.balances ? { balances: options.balances } : {}) });
}

/** A signed submission of a quote. */
export interface Submission {
  quoteId: string;
  transaction: string;
}

/**
 * A quote `resolver` wins and signs, for `taker` (signed by it): the cNGN the band prices at 1 USDC, for
 * 1 USDC. Its blockhash must still be valid: the files of this project share the relay's modules, so a file
 * before this one that moved the chain 200 slots at once leaves the relay holding a blockhash the chain has
 * passed, until its next read (every 5 s); the quote is then asked again.
 */
export async function wonBy(app: App, resolver: SolanaBidder, taker: Keypair): Promise<Submission> {
  for (let attempt = 0; ; attempt++) {
    const quote = await quoteWonBy(app, resolver, taker);
    const { recentBlockhash } = VersionedTransaction.deserialize(base64.decode(quote.transaction)).message;
    const { value } = await solanaRpc<{ value: boolean }>(env.TEST_SOLANA_RPC_URL, "isBlockhashValid", [
      recentBlockhash,
      { commitment: "confirmed" },
    ]);
    if (value || attempt >= 2) return quote;
    await new Promise((r) => setTimeout(r, 5_500));
  }
}

/** The quote the taker asks for in these tests: the cNGN the band prices at 1 USDC, for USDC. */
export const quoteRequest = async (app: App, taker: Keypair) => ({
  chainId: SOL.chainId,
  sellToken: SOL.cngn,
  buyToken: SOL.usdc,
  sellAmount: await marketSellAmount(app),
  taker: taker.publicKey.toBase58(),
});

async function quoteWonBy(app: App, resolver: SolanaBidder, taker: Keypair): Promise<Submission> {
  const pending = post(app, "/v1/quotes", await quoteRequest(app, taker));
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

/** `address`'s entry in the directory of nodes. */
const nodeOf = async (address: string) =>
  (await getJson<{ nodes: Node[] }>("/v1/nodes")).body.nodes.find((n) => n.address === address);

/** A fresh taker's quote: `resolver` is not asked, so no offers, and the directory shows it `degraded`. */
export async function expectNotAsked(app: App, resolver: SolanaBidder, degraded: string) {
  const pending = post(app, "/v1/quotes", await quoteRequest(app, await freshTaker()));
  await expect(resolver.nextRfq(1_000)).rejects.toThrow("no rfq frame");
  expect(await pending).toMatchObject({ status: 404, body: { error: "no_offers" } });
  await eventually(async () =>
    expect(await nodeOf(resolver.account.address)).toMatchObject({ state: "degraded", degraded }),
  );
}

/** The resolver's strikes in the directory (0 without an entry). */
export const strikes = async (resolver: SolanaBidder) =>
  (
    await env.DB.prepare("SELECT strikes FROM resolvers WHERE address = ?")
      .bind(resolver.account.address.toLowerCase())
      .first<{ strikes: number }>()
  )?.strikes ?? 0;

/** The taker submits; the keeper's simulation fails, blamed by `reason`. Returns the execution. */
export async function submitRequoted(app: App, submission: Submission, reason: string) {
  const answer = await post(app, "/v1/executions", submission);
  expect(answer).toMatchObject({ status: 200, body: { status: "requote", reason } });
  const execution = await app.request(`/v1/executions/${answer.body.executionId}`, {}, env);
  return (await execution.json()) as Record<string, unknown>;
}

/** The taker submits; the keeper's simulation fails at the resolver's doing, blamed on it, and it is struck. */
export async function expectStruck(app: App, resolver: SolanaBidder, submission: Submission, reason: string) {
  expect(await submitRequoted(app, submission, reason)).toMatchObject({ status: "requote", reason, blame: "resolver" });
  expect(await strikes(resolver)).toBe(1);
  expect(await resolver.socket.next("error")).toMatchObject({ code: "strike" });
}

/** `key`'s lamports at `confirmed`. */
export const lamports = async (key: string) =>
  BigInt(
    (await solanaRpc<{ value: number }>(env.TEST_SOLANA_RPC_URL, "getBalance", [key, { commitment: "confirmed" }]))
      .value,
  );

/** Keeper alarms (indexer passes) until the quote is settled, as the alarm would run them. */
export async function settled(app: App, quoteId: string): Promise<Quote> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    await runDurableObjectAlarm(chainKeeperStub(env, SOL.chainId));
    const quote = (await (await app.request(`/v1/quotes/${quoteId}`, {}, env)).json()) as Quote;
    if (quote.status === "settled" || Date.now() > deadline) return quote;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** What the landed swap `signature` cost its fee payer beyond the transaction's fee: rent it paid. */
export async function keeperRent(signature: string): Promise<bigint> {
  const tx = await solanaRpc<{ meta: { fee: number; preBalances: number[]; postBalances: number[] } }>(
    env.TEST_SOLANA_RPC_URL,
    "getTransaction",
    [signature, { encoding: "base64", commitment: "confirmed", maxSupportedTransactionVersion: 0 }],
  );
  const [pre = 0, post = 0] = [tx.meta.preBalances[0], tx.meta.postBalances[0]];
  return BigInt(pre - post - tx.meta.fee);
}
