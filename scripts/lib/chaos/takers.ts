/**
 * Takers that swap back to back through the relay's HTTP API with the taker library (src/clients/taker):
 * quote, sign, submit with an Idempotency-Key, every request made as a careful client makes it
 * (careful-client.ts), each submission and what it was told kept in the ledger.
 */
import type { Keypair } from "@solana/web3.js";
import type { LocalAccount, PublicClient } from "viem";
import type { EvmExecutionRequest, Quote, SolanaExecutionRequest } from "../../../src/clients/taker/api";
import { requestQuote, requestSolanaQuote } from "../../../src/clients/taker/relay";
import { signSolanaQuote } from "../../../src/clients/taker/solana-swap";
import { signForSubmission } from "../../../src/clients/taker/swap";
import { carefully, submitCarefully } from "./careful-client";
import type { ChainKind, ChaosLedger } from "./ledger";
import { Pacer, type Pacing } from "./pacing";

/**
 * How long after its expiry a careful taker keeps asking about a submission it sent: the signed order stays
 * valid on chain 60 s past `expiresAt` (docs/settlement.md, "What moves"), so until then a fill may still
 * come of it, and the key still answers it.
 */
export const ORDER_GRACE_MS = 60_000;
/** A taker with no quote (the relay down, no resolver connected yet), or none it would sign, asks again after this. */
const QUOTE_PAUSE_MS = 500;

export interface TakerRun {
  relayUrl: string;
  /** No swap starts after it (ms since the epoch). */
  until: number;
  ledger: ChaosLedger;
  random: () => number;
  /** The relay's published limits, kept (pacing.ts). */
  pacing: Pacing;
  /** Before each submission attempt is sent: the crasher waits for one to be in flight. */
  onSubmitting?: () => void;
}

export interface Pair {
  chainId: number;
  sellToken: string;
  buyToken: string;
  /** Base units of the sell token per swap. */
  sellAmount: bigint;
}

export interface EvmTaker {
  account: LocalAccount;
  /** Reads the Permit2 allowance and the token's permit nonce. */
  client: PublicClient;
}

/** An EVM taker swapping `pair` back to back until `run.until`. */
export async function evmTaker(run: TakerRun, taker: EvmTaker, pair: Pair): Promise<void> {
  const body = { ...quoteBody(pair), taker: taker.account.address };
  await backToBack(run, "evm", taker.account.address, async () => {
    const quote = await quoteCarefully(run, pair.chainId, (signal) => requestQuote(run.relayUrl, body, { signal }));
    if (!quote) return null;
    const signed = await signForSubmission(taker.client, taker.account, quote);
    return { quote, request: signed.request };
  });
}

/** A Solana taker swapping `pair` back to back until `run.until`. */
export async function solanaTaker(run: TakerRun, keypair: Keypair, pair: Pair): Promise<void> {
  const address = keypair.publicKey.toBase58();
  const body = { ...quoteBody(pair), taker: address };
  await backToBack(run, "solana", address, async () => {
    const quote = await quoteCarefully(run, pair.chainId, (signal) =>
      requestSolanaQuote(run.relayUrl, body, { signal }),
    );
    if (!quote) return null;
    return { quote, request: { quoteId: quote.quoteId, transaction: signSolanaQuote(keypair, quote) } };
  });
}

const quoteBody = (pair: Pair) => ({
  chainId: pair.chainId,
  sellToken: pair.sellToken,
  buyToken: pair.buyToken,
  sellAmount: pair.sellAmount.toString(),
});

type Signed = { quote: Quote; request: EvmExecutionRequest | SolanaExecutionRequest };

async function backToBack(
  run: TakerRun,
  kind: ChainKind,
  taker: string,
  quoteAndSign: () => Promise<Signed | null>,
): Promise<void> {
  const submissions = new Pacer(run.pacing.submissionIntervalMs);
  while (Date.now() < run.until) {
    let signed: Signed | null;
    try {
      signed = await quoteAndSign();
    } catch (e) {
      // A quote the library refuses to sign (it does not say what it was shown) is a finding, not noise.
      run.ledger.takerErrors.push(`${kind} taker ${taker}: ${(e as Error).message}`);
      await new Promise((r) => setTimeout(r, QUOTE_PAUSE_MS));
      continue;
    }
    if (!signed) {
      await new Promise((r) => setTimeout(r, QUOTE_PAUSE_MS));
      continue;
    }
    const idempotencyKey = crypto.randomUUID();
    const { quote, request } = signed;
    await submissions.turn();
    const submitted = await submitCarefully(run.relayUrl, request, idempotencyKey, {
      deadline: Date.parse(quote.expiresAt) + ORDER_GRACE_MS,
      random: run.random,
      ...(run.onSubmitting ? { before: run.onSubmitting } : {}),
    });
    run.ledger.swaps.push({
      kind,
      taker,
      quoteId: quote.quoteId,
      idempotencyKey,
      request,
      attempts: submitted.attempts,
      answer: submitted.value?.answer ?? null,
    });
  }
}

/** A quote, asked as a careful client asks (no key: a repeat is a new auction); null when none came. */
async function quoteCarefully<Q>(
  run: TakerRun,
  chainId: number,
  ask: (signal: AbortSignal) => Promise<Q>,
): Promise<Q | null> {
  const quoted = await carefully(async (signal) => ({ status: 200, value: await ask(signal) }), {
    deadline: run.until,
    random: run.random,
    before: () => run.pacing.quote(chainId),
  });
  run.ledger.quoteAttempts.push(...quoted.attempts);
  return quoted.value;
}
