import { env, runDurableObjectAlarm } from "cloudflare:test";
import { base58, base64 } from "@scure/base";
import { createTransferCheckedInstruction, getAssociatedTokenAddressSync } from "@solana/spl-token";
import { Keypair, PublicKey, Transaction, VersionedTransaction } from "@solana/web3.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { localSolanaKeypair } from "../../scripts/lib/solana-harness/accounts";
import { createApp } from "../../src/app";
import { transactionOrderHash } from "../../src/chains/solana/order-hash";
import { solanaRpc } from "../../src/chains/solana/rpc";
import { transactionId } from "../../src/chains/solana/settler-rpc";
import { readWireBase64 } from "../../src/chains/solana/wire";
import { splBalance } from "../../src/clients/resolver/solana-inventory";
import { loadConfig } from "../../src/config/load";
import type { SolanaChain } from "../../src/config/schema";
import { chainKeeperStub } from "../../src/objects";
import type { Execution, Quote } from "../../src/schemas/quote";
import { SOL } from "../support/ws-client";
import { marketSellAmount, type SolanaBidder, solanaBidder } from "./bidder";

/**
 * Solana settlement through `POST /v1/executions` against the LiteSVM harness (docs/settlement.md, "The
 * keeper's steps on Solana"): every answer of the route on Solana, the keeper as fee payer, the indexer
 * to `final`, and restart safety, with the relay's RPC going through a proxy that can misbehave.
 */

const app = createApp();
const chain = loadConfig(env.RELAY_CONFIG).chains.find((c): c is SolanaChain => c.kind === "solana") as SolanaChain;
const token = (address: string) => ({ address, tokenProgram: chain.tokens[0]?.tokenProgram ?? "" });
const balance = (owner: string, mint: string) => splBalance(env.TEST_SOLANA_RPC_URL, owner, token(mint));

const request = async (path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const init =
    body === undefined
      ? {}
      : { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) };
  const res = await app.request(path, init, env);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const proxy = (path: string, body: unknown) =>
  fetch(`${env.TEST_SOLANA_PROXY_URL}${path}`, { method: "POST", body: JSON.stringify(body) });
const setFault = (mode: string) => proxy("/__fault", { mode });
const sentThroughProxy = async () => (await (await fetch(`${env.TEST_SOLANA_PROXY_URL}/__sent`)).json()) as string[];
const getQuote = async (id: string) => (await request(`/v1/quotes/${id}`)).body as unknown as Quote;

/** Keeper alarms (indexer passes) until `check` holds, as the alarm would run them. */
async function indexUntil(quoteId: string, check: (q: Quote) => boolean, seconds = 10): Promise<Quote> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    await runDurableObjectAlarm(chainKeeperStub(env, SOL.chainId));
    const quote = await getQuote(quoteId);
    if (check(quote) || Date.now() > deadline) return quote;
    await new Promise((r) => setTimeout(r, 200));
  }
}

let alpha: SolanaBidder;
beforeAll(async () => {
  alpha = await solanaBidder(0, "alpha");
});
afterAll(() => alpha.socket.close());
afterEach(() => setFault("none"));

interface SolanaQuote {
  quoteId: string;
  transaction: string;
  takerPays: string;
  received: string;
  proceeds: string;
  fee: { token: string; amount: string };
  gasFee: { token: string; amount: string };
}

/** A quote won and signed by alpha for `taker`: the cNGN the band prices at 1 USDC, for 1 USDC. */
async function quoteFor(taker: Keypair): Promise<SolanaQuote> {
  const pending = request("/v1/quotes", {
    chainId: SOL.chainId,
    sellToken: SOL.cngn,
    buyToken: SOL.usdc,
    sellAmount: await marketSellAmount(app),
    taker: taker.publicKey.toBase58(),
  });
  alpha.bid(await alpha.nextRfq(), 1_000_000n);
  alpha.sign(await alpha.nextSign());
  const { status, body } = await pending;
  if (status !== 200) throw new Error(`no quote: ${status} ${JSON.stringify(body)}`);
  return body as unknown as SolanaQuote;
}

/** The quote's transaction with `taker`'s signature in its slot, as a wallet signs it. */
function signed(quote: SolanaQuote, taker: Keypair): string {
  const tx = VersionedTransaction.deserialize(base64.decode(quote.transaction));
  tx.sign([taker]);
  return base64.encode(tx.serialize());
}

const taker = localSolanaKeypair("taker:5");
const strikes = async () =>
  (
    await env.DB.prepare("SELECT strikes FROM resolvers WHERE address = ?")
      .bind(alpha.account.address.toLowerCase())
      .first<{ strikes: number }>()
  )?.strikes ?? 0;
const resolverKey = () => alpha.keypair.publicKey.toBase58();

describe("POST /v1/executions on Solana", () => {
  it("settles the swap with the keeper as fee payer, to final, every balance to the base unit", async () => {
    const owners = { taker: taker.publicKey.toBase58(), resolver: resolverKey() };
    const read = async () => ({
      takerCngn: await balance(owners.taker, SOL.cngn),
      takerUsdc: await balance(owners.taker, SOL.usdc),
      resolverCngn: await balance(owners.resolver, SOL.cngn),
      resolverUsdc: await balance(owners.resolver, SOL.usdc),
      treasuryUsdc: await balance(chain.treasury, SOL.usdc),
      keeperUsdc: await balance(chain.keeper, SOL.usdc),
    });
    const before = await read();
    const quote = await quoteFor(taker);
    const answer = await request("/v1/executions", { quoteId: quote.quoteId, transaction: signed(quote, taker) });
    expect(answer).toMatchObject({ status: 202, body: { status: "submitted" } });
    const txHash = String(answer.body.txHash);
    expect(base58.decode(txHash)).toHaveLength(64);

    const final = await indexUntil(quote.quoteId, (q) => q.final);
    expect(final).toMatchObject({ status: "settled", final: true });
    expect(final.settlement).toMatchObject({ txHash, submitter: chain.keeper, confirmed: true });
    // The fill names the quote's order, the hash of the message everyone signed, not the transaction's signature.
    const orderHash = transactionOrderHash(quote.transaction);
    expect(orderHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(final.fills).toEqual([
      { orderHash, resolver: resolverKey(), filler: chain.keeper, logIndex: expect.any(Number) },
    ]);
    const execution = (await request(`/v1/executions/${answer.body.executionId}`)).body as unknown as Execution;
    expect(execution).toMatchObject({ status: "settled", txHash, gasUsed: expect.stringMatching(/^[1-9]\d*$/) });
    // The block of a Solana settlement is its slot.
    const status = await fetch(env.TEST_SOLANA_RPC_URL, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getSignatureStatuses", params: [[txHash]] }),
    });
    const slot = ((await status.json()) as { result: { value: [{ slot: number }] } }).result.value[0].slot;
    expect(final.settlement?.block).toBe(slot);
    // Its time is the chain's time of that slot, as the node answers it.
    const landed = await solanaRpc<{ blockTime: number }>(env.TEST_SOLANA_RPC_URL, "getTransaction", [
      txHash,
      { encoding: "base64", commitment: "confirmed", maxSupportedTransactionVersion: 0 },
    ]);
    expect(final.settlement?.blockTime).toBe(new Date(landed.blockTime * 1000).toISOString());

    const after = await read();
    const [fee, gasFee] = [BigInt(quote.fee.amount), BigInt(quote.gasFee.amount)];
    expect(after.takerCngn - before.takerCngn).toBe(-BigInt(quote.takerPays));
    expect(after.takerUsdc - before.takerUsdc).toBe(BigInt(quote.received));
    expect(after.resolverCngn - before.resolverCngn).toBe(BigInt(quote.proceeds));
    expect(after.resolverUsdc - before.resolverUsdc).toBe(-(BigInt(quote.received) + fee + gasFee));
    expect(after.treasuryUsdc - before.treasuryUsdc).toBe(fee);
    expect(after.keeperUsdc - before.keeperUsdc).toBe(gasFee);
  });

  it("records blockTime and gasUsed null when the node reports neither: never the relay's clock, never 0", async () => {
    const quote = await quoteFor(taker);
    const answer = await request("/v1/executions", { quoteId: quote.quoteId, transaction: signed(quote, taker) });
    expect(answer).toMatchObject({ status: 202, body: { status: "submitted" } });
    await setFault("bare-receipts");
    const settled = await indexUntil(quote.quoteId, (q) => q.status === "settled");
    expect(settled.settlement).toMatchObject({
      txHash: answer.body.txHash,
      blockTime: null,
      takerPays: quote.takerPays,
    });
    expect(settled.executions).toMatchObject([{ status: "settled", gasUsed: null }]);
    const execution = (await request(`/v1/executions/${answer.body.executionId}`)).body;
    expect(execution).toMatchObject({ status: "settled", gasUsed: null });
  });

  it("charges the fee in the sell token when it is the first of fee.tokens: the taker pays it on top, to the treasury", async () => {
    // The local chain's fee.tokens is [USDC]: selling USDC, the fee is the sell token's, bps of the sale.
    expect(chain.fee.tokens[0]).toBe(SOL.usdc);
    const owners = { taker: taker.publicKey.toBase58(), resolver: resolverKey() };
    const read = async () => ({
      takerUsdc: await balance(owners.taker, SOL.usdc),
      takerCngn: await balance(owners.taker, SOL.cngn),
      resolverUsdc: await balance(owners.resolver, SOL.usdc),
      resolverCngn: await balance(owners.resolver, SOL.cngn),
      treasuryUsdc: await balance(chain.treasury, SOL.usdc),
      treasuryCngn: await balance(chain.treasury, SOL.cngn),
      keeperUsdc: await balance(chain.keeper, SOL.usdc),
    });
    const before = await read();
    const pending = request("/v1/quotes", {
      chainId: SOL.chainId,
      sellToken: SOL.usdc,
      buyToken: SOL.cngn,
      sellAmount: "1000000",
      taker: owners.taker,
    });
    const rfq = await alpha.nextRfq();
    expect(rfq.fee).toEqual({ token: SOL.usdc, bps: chain.fee.bps });
    const output = BigInt(await marketSellAmount(app));
    alpha.bid(rfq, output);
    alpha.sign(await alpha.nextSign());
    const { status, body } = await pending;
    expect(status).toBe(200);
    const quote = body as unknown as SolanaQuote;
    const fee = (1_000_000n * BigInt(chain.fee.bps)) / 10_000n;
    const gasFee = BigInt(quote.gasFee.amount);
    expect(quote.fee).toEqual({ token: SOL.usdc, amount: fee.toString() });
    expect(quote.gasFee.token).toBe(SOL.usdc);
    expect(quote).toMatchObject({ received: output.toString(), proceeds: "1000000" });
    expect(BigInt(quote.takerPays)).toBe(1_000_000n + fee + gasFee);

    const answer = await request("/v1/executions", { quoteId: quote.quoteId, transaction: signed(quote, taker) });
    expect(answer).toMatchObject({ status: 202, body: { status: "submitted" } });
    const settled = await indexUntil(quote.quoteId, (q) => q.status === "settled");
    expect(settled.settlement).toMatchObject({ takerPays: quote.takerPays, proceeds: "1000000" });

    const after = await read();
    expect(after.takerUsdc - before.takerUsdc).toBe(-BigInt(quote.takerPays));
    expect(after.takerCngn - before.takerCngn).toBe(output);
    expect(after.resolverUsdc - before.resolverUsdc).toBe(1_000_000n);
    expect(after.resolverCngn - before.resolverCngn).toBe(-output);
    expect(after.treasuryUsdc - before.treasuryUsdc).toBe(fee);
    expect(after.treasuryCngn - before.treasuryCngn).toBe(0n);
    expect(after.keeperUsdc - before.keeperUsdc).toBe(gasFee);
  });

  it("answers 400 bad_transaction for anything but the quote's transaction signed by the taker", async () => {
    const quote = await quoteFor(taker);
    const other = await quoteFor(taker);
    const good = base64.decode(signed(quote, taker));
    const changed = Uint8Array.from(good);
    changed[changed.length - 1] = (changed[changed.length - 1] ?? 0) ^ 1;
    // The taker's signature over another quote's message, in this quote's taker slot.
    const wire = readWireBase64(quote.transaction);
    if (!wire) throw new Error("unreadable quote transaction");
    const slot = wire.slotsOffset + wire.signers.indexOf(taker.publicKey.toBase58()) * 64;
    const misplaced = Uint8Array.from(good);
    misplaced.set(base64.decode(signed(other, taker)).subarray(slot, slot + 64), slot);
    const cases: [string, string][] = [
      ["message_changed", base64.encode(changed)],
      ["taker_signature_missing", quote.transaction],
      ["message_changed", signed(other, taker)],
      ["not_base64", "not base64!"],
      ["taker_signature_invalid", base64.encode(misplaced)],
    ];
    for (const [reason, transaction] of cases) {
      const answer = await request("/v1/executions", { quoteId: quote.quoteId, transaction });
      expect([answer.status, answer.body.error, answer.body.reason]).toEqual([400, "bad_transaction", reason]);
    }
    expect((await getQuote(quote.quoteId)).status).toBe("quoted");
  });

  it("answers requote taker:insufficient_balance for a taker without the tokens, and leaves the quote open", async () => {
    const unfunded = Keypair.generate();
    const quote = await quoteFor(unfunded);
    const answer = await request("/v1/executions", { quoteId: quote.quoteId, transaction: signed(quote, unfunded) });
    expect(answer).toMatchObject({ status: 200, body: { status: "requote", reason: "taker:insufficient_balance" } });
    // Signed but still open: once funded, the taker may submit it again. The winner gets no strike.
    expect((await getQuote(quote.quoteId)).status).toBe("signed");
    expect(await strikes()).toBe(0);
  });

  it("answers quote_expired past the quote's expiry, and quote_not_open once a fill is on its way", async () => {
    const expired = await quoteFor(taker);
    // Read through first: the corridor copies its quotes to D1 behind its answers (docs/architecture.md).
    await getQuote(expired.quoteId);
    await env.DB.prepare("UPDATE quotes SET expires_at = ? WHERE quote_id = ?")
      .bind(new Date(Date.now() - 1_000).toISOString(), expired.quoteId)
      .run();
    const late = await request("/v1/executions", { quoteId: expired.quoteId, transaction: signed(expired, taker) });
    expect([late.status, late.body.error]).toEqual([409, "quote_expired"]);

    const quote = await quoteFor(taker);
    const body = { quoteId: quote.quoteId, transaction: signed(quote, taker) };
    expect((await request("/v1/executions", body)).status).toBe(202);
    const again = await request("/v1/executions", body);
    expect([again.status, again.body.error]).toEqual([409, "quote_not_open"]);
    await indexUntil(quote.quoteId, (q) => q.status === "settled");
  });

  it("answers a repeated Idempotency-Key with the first execution, sending nothing again", async () => {
    const quote = await quoteFor(taker);
    const body = { quoteId: quote.quoteId, transaction: signed(quote, taker) };
    const key = { "Idempotency-Key": crypto.randomUUID() };
    const first = await request("/v1/executions", body, key);
    const sentBefore = (await sentThroughProxy()).length;
    const second = await request("/v1/executions", body, key);
    expect(second.body).toMatchObject({ executionId: first.body.executionId, duplicate: true });
    expect((await sentThroughProxy()).length).toBe(sentBefore);
    await indexUntil(quote.quoteId, (q) => q.status === "settled");
  });

  it("answers 503 broadcast_failed when the RPC refuses the send, nothing recorded, and takes the quote again", async () => {
    const quote = await quoteFor(taker);
    const body = { quoteId: quote.quoteId, transaction: signed(quote, taker) };
    await setFault("refuse-send");
    const refused = await request("/v1/executions", body);
    expect([refused.status, refused.body.error]).toEqual([503, "broadcast_failed"]);
    expect((await getQuote(quote.quoteId)).status).toBe("quoted");
    expect((await request("/v1/executions", body)).status).toBe(202);
    expect((await indexUntil(quote.quoteId, (q) => q.status === "settled")).status).toBe("settled");
  });

  it("stands by a send whose answer was lost: recovered by its signature, sent once, settled", async () => {
    const quote = await quoteFor(taker);
    const transaction = signed(quote, taker);
    await setFault("lose-send-answer");
    const answer = await request("/v1/executions", { quoteId: quote.quoteId, transaction });
    expect(answer).toMatchObject({ status: 202, body: { status: "submitted" } });
    const settled = await indexUntil(quote.quoteId, (q) => q.status === "settled");
    expect(settled.settlement?.txHash).toBe(answer.body.txHash);
    const sends = (await sentThroughProxy()).filter((raw) => transactionId(base64.decode(raw)) === answer.body.txHash);
    expect(sends).toHaveLength(1);
  });

  it("blames and strikes a winner that empties its own token account before the fill, and nobody else", async () => {
    const quote = await quoteFor(taker);
    const usdc = token(SOL.usdc);
    const held = await balance(resolverKey(), SOL.usdc);
    const before = await strikes();
    await moveTokens(alpha.keypair, taker.publicKey, usdc, held);
    try {
      const answer = await request("/v1/executions", { quoteId: quote.quoteId, transaction: signed(quote, taker) });
      expect(answer).toMatchObject({
        status: 200,
        body: { status: "requote", reason: "resolver:insufficient_balance" },
      });
      expect((await request(`/v1/executions/${answer.body.executionId}`)).body).toMatchObject({ blame: "resolver" });
      expect(await strikes()).toBe(before + 1);
    } finally {
      await moveTokens(taker, alpha.keypair.publicKey, usdc, held);
      // Demoted, alpha could win nothing more here: an admin lifts the demotion for the tests after.
      const reinstate = `/v1/admin/resolvers/${alpha.account.address}/reinstate`;
      expect((await request(reinstate, {}, { authorization: "Bearer test-admin-token" })).status).toBe(200);
    }
  });

  it("fails a swap that never landed once its blockhash expired: the relay's to answer for, so nobody is struck", async () => {
    const before = await strikes();
    const quote = await quoteFor(taker);
    await setFault("swallow-sends");
    const answer = await request("/v1/executions", { quoteId: quote.quoteId, transaction: signed(quote, taker) });
    expect(answer.status).toBe(202);
    await runDurableObjectAlarm(chainKeeperStub(env, SOL.chainId));
    expect((await getQuote(quote.quoteId)).status).toBe("submitted");
    // Past the blockhash's 150 blocks: the swap can no longer land.
    await proxy("/__advance", { slots: 200 });
    const failed = await indexUntil(quote.quoteId, (q) => q.status === "failed");
    expect(failed.status).toBe("failed");
    const execution = (await request(`/v1/executions/${answer.body.executionId}`)).body;
    expect(execution).toMatchObject({ status: "failed", reason: "relay:dropped", blame: "relay" });
    expect(await strikes()).toBe(before);
  });
});

/** `from` sends `amount` of `mint` from its token account to `to`'s, through the harness. */
async function moveTokens(
  from: Keypair,
  to: PublicKey,
  mint: { address: string; tokenProgram: string },
  amount: bigint,
) {
  const program = new PublicKey(mint.tokenProgram);
  const mintKey = new PublicKey(mint.address);
  const ata = (owner: PublicKey) => getAssociatedTokenAddressSync(mintKey, owner, true, program);
  const { value } = await solanaRpc<{ value: { blockhash: string } }>(env.TEST_SOLANA_RPC_URL, "getLatestBlockhash", [
    { commitment: "confirmed" },
  ]);
  const tx = new Transaction({ feePayer: from.publicKey, recentBlockhash: value.blockhash }).add(
    createTransferCheckedInstruction(ata(from.publicKey), mintKey, ata(to), from.publicKey, amount, 6, [], program),
  );
  tx.sign(from);
  await solanaRpc(env.TEST_SOLANA_RPC_URL, "sendTransaction", [base64.encode(tx.serialize()), { encoding: "base64" }]);
  await proxy("/__advance", { slots: 1 });
}
