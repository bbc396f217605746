import { base64 } from "@scure/base";
import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import { Connection, type Keypair, LAMPORTS_PER_SOL, PublicKey, VersionedTransaction } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localSolanaKeypair } from "../../scripts/lib/solana-harness/accounts";
import { type SolanaHarness, startSolanaHarness } from "../../scripts/lib/solana-harness/server";
import { checkTakerTransaction } from "../../src/chains/solana/swap-checks";
import { signRequest, verifyWinnerSignature, withSignature } from "../../src/chains/solana/swap-signatures";
import { buildSwapTransaction, MEMO_PROGRAM } from "../../src/chains/solana/swap-transaction";
import type { SolanaChain } from "../../src/config/schema";
import { addSignatures, localSolana, mintOf, type SwapQuote, signMessageOf, swapQuote } from "../support/solana-swap";

let harness: SolanaHarness;
let connection: Connection;

beforeAll(async () => {
  // Slots move only when a test advances them (as in solana-harness.test.ts): nothing expires meanwhile.
  harness = await startSolanaHarness({ port: 0, slotMs: 3_600_000 });
  connection = new Connection(harness.url, "confirmed");
});

afterAll(async () => {
  await harness?.stop();
});

const USDC = mintOf(localSolana, "USDC");
const CNGN = mintOf(localSolana, "cNGN");
/** Three signatures of 5,000 lamports and ceil(1,000 µlamports × 200,000 CU / 10^6) = 200 of priority. */
const SWAP_FEE_LAMPORTS = 3 * 5_000 + 200;
const TOKEN_ACCOUNT_RENT = 2_039_280;

const ata = (mint: string, owner: string | PublicKey) =>
  getAssociatedTokenAddressSync(new PublicKey(mint), new PublicKey(owner), true);

async function tokenBalance(mint: string, owner: string | PublicKey): Promise<bigint | null> {
  const account = ata(mint, owner);
  if (!(await connection.getAccountInfo(account))) return null;
  return BigInt((await connection.getTokenAccountBalance(account)).value.amount);
}

/** Polls getSignatureStatuses until the transaction is confirmed (there is no WebSocket to wait on). */
async function confirmed(signature: string, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = (await connection.getSignatureStatuses([signature])).value[0];
    if (status?.confirmationStatus === "confirmed" || status?.confirmationStatus === "finalized") return status;
    if (Date.now() > deadline) throw new Error(`${signature} not confirmed: ${JSON.stringify(status)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * The whole path of a Solana quote's transaction: built, signed by the winner (checked), the quote's
 * `transaction` signed by the taker (checked as the keeper will), signed last by the keeper and sent.
 */
async function settle(chain: SolanaChain, quote: SwapQuote, resolver: Keypair, taker: Keypair, keeper: Keypair) {
  const { blockhash } = await connection.getLatestBlockhash("processed");
  const winner = { resolver: resolver.publicKey.toBase58(), amounts: quote.amounts };
  const request = signRequest(buildSwapTransaction(chain, quote.terms, winner, blockhash));
  const resolverSignature = signMessageOf(request, resolver);
  expect(verifyWinnerSignature(request, winner.resolver, resolverSignature)).toBe(true);
  const quoteTransaction = withSignature(request, winner.resolver, resolverSignature);

  const submitted = addSignatures(quoteTransaction, taker);
  const check = checkTakerTransaction(quoteTransaction, submitted, taker.publicKey.toBase58());
  if (!check.ok) throw new Error(`refused: ${check.reason}`);
  const tx = VersionedTransaction.deserialize(check.transaction);
  tx.sign([keeper]);

  const signature = await connection.sendRawTransaction(tx.serialize());
  const status = await confirmed(signature);
  expect(status.err).toBeNull();
  const landed = await connection.getTransaction(signature, {
    commitment: "confirmed",
    maxSupportedTransactionVersion: 0,
  });
  if (!landed?.meta) throw new Error("the landed transaction has no metadata");
  return { signature, landed, meta: landed.meta };
}

describe("a Solana quote's swap transaction on the local chain", () => {
  it("swaps taker:5's cNGN for resolver:1's USDC, each balance moving by the quote's amounts", async () => {
    const taker = harness.accounts.takers[0] as Keypair;
    const resolver = harness.accounts.resolvers[0] as Keypair;
    const keeper = harness.accounts.keeper;
    const quote = swapQuote({
      taker: taker.publicKey.toBase58(),
      sell: "cNGN",
      sellAmount: 1_580_000_000n,
      outputAmount: 1_000_140n,
      quoteId: "q_swap_cngn_usdc",
    });
    const { amounts } = quote;
    expect(amounts).toEqual({
      outputAmount: 1_000_140n,
      fee: 1_000n,
      gasFee: 5_000n,
      received: 994_140n,
      takerPays: 1_580_000_000n,
      proceeds: 1_580_000_000n,
    });
    const balances = () =>
      Promise.all([
        tokenBalance(CNGN, taker.publicKey),
        tokenBalance(USDC, taker.publicKey),
        tokenBalance(CNGN, resolver.publicKey),
        tokenBalance(USDC, resolver.publicKey),
        tokenBalance(USDC, localSolana.treasury),
        tokenBalance(USDC, keeper.publicKey),
      ]);
    const before = await balances();
    const keeperLamports = await connection.getBalance(keeper.publicKey);
    const takerLamports = await connection.getBalance(taker.publicKey);

    const { landed, meta } = await settle(localSolana, quote, resolver, taker, keeper);

    const after = await balances();
    const change = after.map((b, i) => (b ?? 0n) - (before[i] ?? 0n));
    expect(change).toEqual([
      -amounts.takerPays, // taker cNGN
      amounts.received, // taker USDC: the taker is the recipient
      amounts.proceeds, // resolver cNGN
      -amounts.outputAmount, // resolver USDC
      amounts.fee, // treasury USDC
      amounts.gasFee, // keeper USDC, the gas fee token
    ]);
    // The keeper pays the network fee; the taker pays no SOL at all.
    expect(meta.fee).toBe(SWAP_FEE_LAMPORTS);
    expect(await connection.getBalance(keeper.publicKey)).toBe(keeperLamports - SWAP_FEE_LAMPORTS);
    expect(await connection.getBalance(taker.publicKey)).toBe(takerLamports);
    expect(meta.computeUnitsConsumed).toBeLessThan(localSolana.computeUnitLimit);

    // The memo carries the quote id: in the logs and as the last instruction's data.
    const logs = meta.logMessages ?? [];
    const memoAt = logs.indexOf(`Program ${MEMO_PROGRAM} invoke [1]`);
    expect(logs.slice(memoAt + 1, memoAt + 3)).toEqual(["Program log: Memo (len 16)", "Program log: q_swap_cngn_usdc"]);
    const message = landed.transaction.message;
    const last = message.compiledInstructions.at(-1);
    expect(message.staticAccountKeys[last?.programIdIndex ?? -1]?.toBase58()).toBe(MEMO_PROGRAM);
    expect(new TextDecoder().decode(last?.data)).toBe("q_swap_cngn_usdc");
  });

  it("charges the fee and the gas fee in the sell token to the taker, on top of the sale", async () => {
    const taker = harness.accounts.takers[1] as Keypair;
    const resolver = harness.accounts.resolvers[1] as Keypair;
    const keeper = harness.accounts.keeper;
    // Selling USDC, the first of the chain's fee.tokens and its gas fee token: both fees are the taker's.
    const quote = swapQuote({
      taker: taker.publicKey.toBase58(),
      sell: "USDC",
      sellAmount: 1_000_000n,
      outputAmount: 1_580_000_000n,
      quoteId: "q_swap_usdc_cngn",
    });
    const { amounts, terms } = quote;
    expect(terms.fee).toEqual({ token: USDC, bps: 10, side: "sell" });
    expect(amounts).toMatchObject({ fee: 1_000n, gasFee: 5_000n, received: 1_580_000_000n, takerPays: 1_006_000n });
    const balances = () =>
      Promise.all([
        tokenBalance(USDC, taker.publicKey),
        tokenBalance(CNGN, taker.publicKey),
        tokenBalance(USDC, resolver.publicKey),
        tokenBalance(CNGN, resolver.publicKey),
        tokenBalance(USDC, localSolana.treasury),
        tokenBalance(USDC, keeper.publicKey),
      ]);
    const before = await balances();
    await settle(localSolana, quote, resolver, taker, keeper);
    const change = (await balances()).map((b, i) => (b ?? 0n) - (before[i] ?? 0n));
    expect(change).toEqual([
      -amounts.takerPays,
      amounts.received,
      amounts.proceeds,
      -amounts.outputAmount,
      amounts.fee,
      amounts.gasFee,
    ]);
  });

  it("charges the fee in the buy token when neither side is one of the chain's fee tokens", async () => {
    const taker = harness.accounts.takers[1] as Keypair;
    const resolver = harness.accounts.resolvers[1] as Keypair;
    const keeper = harness.accounts.keeper;
    // A third token, never moved here, is the chain's only fee token: a USDC → cNGN swap pays in cNGN.
    const third = localSolanaKeypair("test:fee-mint").publicKey.toBase58();
    const usdc = localSolana.tokens[0] as SolanaChain["tokens"][number];
    const chain: SolanaChain = {
      ...localSolana,
      tokens: [...localSolana.tokens, { ...usdc, symbol: "EURC", address: third }],
      fee: { tokens: [third], bps: 10 },
    };
    const quote = swapQuote({
      chain,
      taker: taker.publicKey.toBase58(),
      sell: "USDC",
      sellAmount: 1_000_000n,
      outputAmount: 1_580_000_000n,
      quoteId: "q_swap_fee_fallback",
    });
    const { amounts, terms } = quote;
    expect(terms.fee).toEqual({ token: CNGN, bps: 10, side: "buy" });
    expect(amounts).toMatchObject({ fee: 1_580_000n, received: 1_578_420_000n, takerPays: 1_005_000n });
    const balances = () =>
      Promise.all([
        tokenBalance(USDC, taker.publicKey),
        tokenBalance(CNGN, resolver.publicKey),
        tokenBalance(CNGN, chain.treasury),
        tokenBalance(USDC, chain.treasury),
      ]);
    const before = await balances();
    await settle(chain, quote, resolver, taker, keeper);
    const change = (await balances()).map((b, i) => (b ?? 0n) - (before[i] ?? 0n));
    expect(change).toEqual([-amounts.takerPays, -amounts.outputAmount, amounts.fee, 0n]);
  });

  it("creates the recipient's, the treasury's and the keeper's token accounts when they are missing", async () => {
    const taker = harness.accounts.takers[2] as Keypair;
    const resolver = harness.accounts.resolvers[2] as Keypair;
    const recipient = localSolanaKeypair("test:swap-recipient").publicKey;
    const treasury = localSolanaKeypair("test:swap-treasury").publicKey;
    const keeper = localSolanaKeypair("test:swap-keeper");
    const chain: SolanaChain = { ...localSolana, treasury: treasury.toBase58(), keeper: keeper.publicKey.toBase58() };
    await confirmed(await connection.requestAirdrop(keeper.publicKey, LAMPORTS_PER_SOL));
    for (const owner of [recipient, treasury, keeper.publicKey]) expect(await tokenBalance(USDC, owner)).toBeNull();
    expect(await connection.getBalance(recipient)).toBe(0);

    const quote = swapQuote({
      chain,
      taker: taker.publicKey.toBase58(),
      recipient: recipient.toBase58(),
      sell: "cNGN",
      sellAmount: 3_160_000_000n,
      outputAmount: 2_000_280n,
      quoteId: "q_swap_new_accounts",
    });
    const takerBefore = await tokenBalance(CNGN, taker.publicKey);
    const resolverBefore = await tokenBalance(USDC, resolver.publicKey);
    const { meta } = await settle(chain, quote, resolver, taker, keeper);

    const { amounts } = quote;
    expect(await tokenBalance(USDC, recipient)).toBe(amounts.received);
    expect(await tokenBalance(USDC, treasury)).toBe(amounts.fee);
    expect(await tokenBalance(USDC, keeper.publicKey)).toBe(amounts.gasFee);
    expect(await tokenBalance(CNGN, taker.publicKey)).toBe((takerBefore ?? 0n) - amounts.takerPays);
    expect(await tokenBalance(USDC, resolver.publicKey)).toBe((resolverBefore ?? 0n) - amounts.outputAmount);
    // The keeper paid the fee and the rent of the three new accounts, whose owners are the ones given.
    expect(await connection.getBalance(keeper.publicKey)).toBe(
      LAMPORTS_PER_SOL - SWAP_FEE_LAMPORTS - 3 * TOKEN_ACCOUNT_RENT,
    );
    const owners = await connection.getParsedAccountInfo(ata(USDC, recipient));
    expect(owners.value?.data).toMatchObject({ parsed: { info: { owner: recipient.toBase58(), mint: USDC } } });
    expect(meta.computeUnitsConsumed).toBeLessThan(chain.computeUnitLimit);
  });

  it("does not land a quote transaction the taker changed", async () => {
    const taker = harness.accounts.takers[3] as Keypair;
    const resolver = harness.accounts.resolvers[3] as Keypair;
    const quote = swapQuote({
      taker: taker.publicKey.toBase58(),
      sell: "cNGN",
      sellAmount: 1_580_000_000n,
      outputAmount: 1_000_140n,
      quoteId: "q_swap_changed",
    });
    const { blockhash } = await connection.getLatestBlockhash("processed");
    const winner = { resolver: resolver.publicKey.toBase58(), amounts: quote.amounts };
    const request = signRequest(buildSwapTransaction(localSolana, quote.terms, winner, blockhash));
    const quoteTransaction = withSignature(request, winner.resolver, signMessageOf(request, resolver));
    // The taker raises what it receives by one base unit, and signs what it changed.
    const tx = VersionedTransaction.deserialize(base64.decode(quoteTransaction));
    const received = tx.message.compiledInstructions.find(
      (ix) => ix.data[0] === 12 && new DataView(ix.data.buffer, ix.data.byteOffset).getBigUint64(1, true) === 994_140n,
    );
    if (!received) throw new Error("no received leg");
    new DataView(received.data.buffer, received.data.byteOffset).setBigUint64(1, 994_141n, true);
    const changed = new VersionedTransaction(tx.message, tx.signatures);
    changed.sign([taker]);
    const submitted = base64.encode(changed.serialize());
    expect(checkTakerTransaction(quoteTransaction, submitted, taker.publicKey.toBase58())).toEqual({
      ok: false,
      reason: "message_changed",
    });
    // The chain would refuse it too: the resolver's signature no longer matches the message.
    changed.sign([harness.accounts.keeper]);
    await expect(connection.sendRawTransaction(changed.serialize())).rejects.toThrow(/signature verification/i);
  });
});
