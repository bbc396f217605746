import { env } from "cloudflare:test";
import { base64 } from "@scure/base";
import { createTransferCheckedInstruction } from "@solana/spl-token";
import { type Keypair, VersionedTransaction } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { solanaRpc } from "../../src/chains/solana/rpc";
import { readWireBase64 } from "../../src/chains/solana/wire";
import { splBalance } from "../../src/clients/resolver/solana-inventory";
import { readStrikeRow } from "../../src/db/strikes";
import type { Quote } from "../../src/schemas/quote";
import { SOL } from "../support/ws-client";
import { marketSellAmount, type SolanaBidder } from "./bidder";
import {
  ata,
  closedAfterEach,
  freshResolver,
  freshTaker,
  HELD,
  land,
  mint,
  post,
  settled,
  strikes,
  tokenProgram,
  treasury,
} from "./token-accounts";

/**
 * A Solana swap filled by several makers' legs in one transaction (docs/legs.md; docs/settlement.md,
 * "Solana: the swap transaction"), against the LiteSVM harness: parts bid beside whole bids, composed into
 * legs when they pay the taker more, every maker signing the one transaction, the keeper settling it and the
 * indexer recording a fill per maker; a maker short at settlement struck alone.
 */

const app = createApp();
const open = closedAfterEach();
const tokenOf = (address: string) => ({ address, tokenProgram: tokenProgram.toBase58() });
const balance = (owner: Keypair | string, token: string) =>
  splBalance(env.TEST_SOLANA_RPC_URL, typeof owner === "string" ? owner : owner.publicKey.toBase58(), tokenOf(token));

/** The swap: the cNGN the band prices at 5 USDC, bid whole at 5 USDC, its parts 0.8 % over the market. */
const WHOLE = 5_000_000n;
const over = (output: bigint) => (output * 1_008n) / 1_000n;

/** A maker holding ~62 % of the swap's output: claims 3.1 USDC, so it can fill a part and never the whole. */
const maker = async (name: string) => {
  const node = await freshResolver(name, { balances: { [SOL.usdc]: "3100000" } });
  open.push(node);
  return node;
};
const idOf = (n: SolanaBidder) => n.account.address.toLowerCase();
const wholeBidder = async (name: string) => {
  const node = await freshResolver(name);
  open.push(node);
  return node;
};

interface Asked {
  taker: Keypair;
  sellAmount: bigint;
  pending: Promise<{ status: number; body: Record<string, unknown> }>;
}

async function ask(): Promise<Asked> {
  const taker = await freshTaker();
  const sellAmount = 5n * BigInt(await marketSellAmount(app));
  const pending = post(app, "/v1/quotes", {
    chainId: SOL.chainId,
    sellToken: SOL.cngn,
    buyToken: SOL.usdc,
    sellAmount: sellAmount.toString(),
    taker: taker.publicKey.toBase58(),
  });
  return { taker, sellAmount, pending };
}

/** `a` bids 60 % of the sale and `b` the rest, each 0.8 % over the market; each signs when asked. */
async function bidParts(asked: Asked, a: SolanaBidder, b: SolanaBidder, others: SolanaBidder[] = []) {
  const partA = (asked.sellAmount * 6n) / 10n;
  const partB = asked.sellAmount - partA;
  const [rfqA, rfqB] = await Promise.all([a.nextRfq(), b.nextRfq()]);
  a.bidPart(rfqA, partA, over(3_000_000n));
  b.bidPart(rfqB, partB, over(2_000_000n));
  for (const node of others) node.bid(await node.nextRfq(), WHOLE);
  const [signA, signB] = await Promise.all([a.nextSign(), b.nextSign()]);
  // Both asked to sign the same transaction, at once.
  expect(signA.transaction).toBe(signB.transaction);
  a.sign(signA);
  b.sign(signB);
  return { partA, partB };
}

/**
 * A quote of `a`'s and `b`'s parts (beside `others`' whole bids) whose blockhash the chain still takes: the
 * files of this project share the relay's modules, so one that moved the chain 200 slots at once leaves the
 * relay a passed blockhash until its next read (every 5 s), and the quote is then asked again (as `wonBy`).
 */
async function legsQuote(a: SolanaBidder, b: SolanaBidder, others: SolanaBidder[] = []) {
  for (let attempt = 0; ; attempt++) {
    const asked = await ask();
    const parts = await bidParts(asked, a, b, others);
    const { status, body } = await asked.pending;
    expect(status).toBe(200);
    const quote = body as unknown as LegsQuote;
    const { recentBlockhash } = VersionedTransaction.deserialize(base64.decode(quote.transaction)).message;
    const { value } = await solanaRpc<{ value: boolean }>(env.TEST_SOLANA_RPC_URL, "isBlockhashValid", [
      recentBlockhash,
      { commitment: "confirmed" },
    ]);
    if (value || attempt >= 2) return { asked, quote, ...parts };
    await new Promise((r) => setTimeout(r, 5_500));
  }
}

const signedBy = (quote: { transaction: string }, taker: Keypair) => {
  const tx = VersionedTransaction.deserialize(base64.decode(quote.transaction));
  tx.sign([taker]);
  return base64.encode(tx.serialize());
};

type LegsQuote = Quote & { transaction: string };

describe("a Solana swap of several makers", () => {
  it("quotes two parts over the best whole bid, and settles them in one transaction: a fill per maker, the recipient exactly `received`", async () => {
    const [a, b, whole] = [await maker("leg-a"), await maker("leg-b"), await wholeBidder("whole")];
    const { asked, quote, partA, partB } = await legsQuote(a, b, [whole]);
    const keyOf = (n: SolanaBidder) => n.keypair.publicKey.toBase58();
    expect(quote.legs.map((l) => [l.resolver.toLowerCase(), l.sellAmount, l.outputAmount])).toEqual([
      [idOf(a), partA.toString(), over(3_000_000n).toString()],
      [idOf(b), partB.toString(), over(2_000_000n).toString()],
    ]);
    // The legs pay the taker more than the whole bid would: 0.8 % more output, the same fees.
    const wholeOffer = quote.offers.find((o) => o.resolver.toLowerCase() === idOf(whole));
    expect(wholeOffer?.won).toBe(false);
    const fee = BigInt(quote.fee.amount);
    const gasFee = BigInt(quote.gasFee.amount);
    expect(BigInt(quote.received)).toBe(over(3_000_000n) + over(2_000_000n) - fee - gasFee);
    expect(BigInt(quote.received)).toBeGreaterThan(WHOLE - (WHOLE * 10n) / 10_000n - gasFee);
    expect(quote.resolver?.solanaAddress).toBe(keyOf(a));
    // Keeper, taker and both makers sign; both makers' signatures are in place.
    const wire = readWireBase64(quote.transaction);
    expect(wire?.signers).toHaveLength(4);
    expect(new Set(wire?.signers)).toEqual(
      new Set([keyOf(a), keyOf(b), asked.taker.publicKey.toBase58(), wire?.signers[0]]),
    );

    const before = {
      taker: await balance(asked.taker, SOL.usdc),
      aUsdc: await balance(a.keypair, SOL.usdc),
      bUsdc: await balance(b.keypair, SOL.usdc),
      aCngn: await balance(a.keypair, SOL.cngn),
      bCngn: await balance(b.keypair, SOL.cngn),
    };
    const answer = await post(app, "/v1/executions", {
      quoteId: quote.quoteId,
      transaction: signedBy(quote, asked.taker),
    });
    expect(answer).toMatchObject({ status: 202, body: { status: "submitted" } });
    const final = await settled(app, quote.quoteId);
    expect(final.status).toBe("settled");
    expect(final.fills.map((f) => f.resolver)).toEqual([keyOf(a), keyOf(b)]);
    expect(new Set(final.fills.map((f) => f.logIndex)).size).toBe(2);
    expect(await balance(asked.taker, SOL.usdc)).toBe(before.taker + BigInt(quote.received));
    // Each maker received its part and paid its output: the first also the gas fee, out of its output.
    expect(await balance(a.keypair, SOL.cngn)).toBe(before.aCngn + partA);
    expect(await balance(b.keypair, SOL.cngn)).toBe(before.bCngn + partB);
    expect(await balance(a.keypair, SOL.usdc)).toBe(before.aUsdc - over(3_000_000n));
    expect(await balance(b.keypair, SOL.usdc)).toBe(before.bUsdc - over(2_000_000n));
    const execution = final.executions.at(-1);
    // The compute units of a swap of two makers, as the chain reports them.
    console.log(`a swap of two makers consumed ${execution?.gasUsed} compute units`);
    expect(BigInt(execution?.gasUsed ?? "0")).toBeGreaterThan(0n);
    expect([await strikes(a), await strikes(b), await strikes(whole)]).toEqual([0, 0, 0]);
    // Each maker's resolver is counted a clean fill by the settlement, not only the quote's.
    for (const leg of [a, b]) {
      expect((await readStrikeRow(env.DB, leg.account.address))?.lastEvent).toBe(execution?.executionId);
    }
  });

  it("fills by legs a swap that no single node can fill", async () => {
    const [a, b] = [await maker("alone-a"), await maker("alone-b")];
    const { asked, quote } = await legsQuote(a, b);
    expect(quote.legs.map((l) => l.resolver.toLowerCase())).toEqual([idOf(a), idOf(b)]);
    const answer = await post(app, "/v1/executions", {
      quoteId: quote.quoteId,
      transaction: signedBy(quote, asked.taker),
    });
    expect(answer).toMatchObject({ status: 202 });
    expect((await settled(app, quote.quoteId)).fills).toHaveLength(2);
  });

  it("strikes only the maker whose account is short at settlement, and requotes: the other leg hears nothing", async () => {
    const [a, b] = [await maker("short-a"), await maker("short-b")];
    const { asked, quote } = await legsQuote(a, b);
    expect(quote.legs).toHaveLength(2);
    // b spends its buy token after quoting: its leg's transfer is short.
    const owner = b.keypair.publicKey;
    const usdc = ata(SOL.usdc, owner);
    const spend = createTransferCheckedInstruction(
      usdc,
      mint(SOL.usdc),
      ata(SOL.usdc, treasury.publicKey),
      owner,
      HELD,
      6,
      [],
      tokenProgram,
    );
    await land([spend], b.keypair);
    const answer = await post(app, "/v1/executions", {
      quoteId: quote.quoteId,
      transaction: signedBy(quote, asked.taker),
    });
    expect(answer).toMatchObject({
      status: 200,
      body: { status: "requote", reason: "resolver:insufficient_balance" },
    });
    expect(await strikes(b)).toBe(1);
    expect(await strikes(a)).toBe(0);
    expect(await b.socket.next("error")).toMatchObject({ code: "strike" });
    await expect(a.socket.next("error", 500)).rejects.toThrow("no error frame");
  });

  it("refuses a part signed for another amount: bad_signature, left out of the fill", async () => {
    const [a, b, whole] = [await maker("forged-a"), await maker("forged-b"), await wholeBidder("forged-whole")];
    const asked = await ask();
    const partA = (asked.sellAmount * 6n) / 10n;
    const partB = asked.sellAmount - partA;
    const [rfqA, rfqB, rfqW] = await Promise.all([a.nextRfq(), b.nextRfq(), whole.nextRfq()]);
    // a signs its output for one base unit more than the part it sends.
    a.bidPart(rfqA, partA, over(3_000_000n), partA + 1n);
    b.bidPart(rfqB, partB, over(2_000_000n));
    whole.bid(rfqW, WHOLE);
    whole.sign(await whole.nextSign());
    const { status, body } = await asked.pending;
    expect(status).toBe(200);
    const quote = body as unknown as LegsQuote;
    // Without a, b's part covers nothing alone: the whole bid fills.
    expect(quote.legs.map((l) => l.resolver.toLowerCase())).toEqual([idOf(whole)]);
    expect(quote.offers.map((o) => o.resolver.toLowerCase())).not.toContain(idOf(a));
    expect(await a.socket.next("error")).toMatchObject({ code: "bad_signature", rfqId: rfqA.rfqId });
  });
});
