import { base64 } from "@scure/base";
import { type Keypair, VersionedTransaction } from "@solana/web3.js";
import type { QuoteRequest, SolanaExecutionRequest } from "./api";
import {
  type RelayCallOptions,
  requestSolanaQuote,
  type SolanaQuote,
  type Submission,
  type SubmitOptions,
  submitExecution,
} from "./relay";
import { QuoteMismatchError } from "./sign";
import { solanaTransactionMismatch } from "./solana-quote";

/**
 * The quote's transaction with the taker's signature in its slot (ed25519 over the message bytes, the
 * resolver's signature kept), base64: what `POST /v1/executions` takes as `transaction`. Throws a
 * QuoteMismatchError, signing nothing, when the transaction does not do what the quote says
 * (`solanaTransactionMismatch`).
 */
export function signSolanaQuote(keypair: Keypair, quote: SolanaQuote): string {
  const mismatch = solanaTransactionMismatch(quote, keypair.publicKey.toBase58());
  if (mismatch) throw new QuoteMismatchError(`quote ${quote.quoteId}: the transaction ${mismatch}`);
  const tx = VersionedTransaction.deserialize(base64.decode(quote.transaction));
  tx.sign([keypair]);
  return base64.encode(tx.serialize());
}

export interface SolanaSwapRequest {
  relayUrl: string;
  keypair: Keypair;
  /** The Solana chain's id in the relay's configuration (103 locally). */
  chainId: number;
  sellToken: string;
  buyToken: string;
  /** Base units. */
  sellAmount: bigint;
  recipient?: string;
  idempotencyKey?: string;
  /** After each step, for a caller that shows progress. */
  onQuoted?: (quote: SolanaQuote) => void;
  onSigned?: (request: SolanaExecutionRequest) => void;
}

/**
 * One Solana swap up to its submission: quote, check and sign the transaction, `POST /v1/executions`.
 * Follow it to `final` with `followToFinal`.
 */
export async function swapOnSolana(
  request: SolanaSwapRequest,
  options: RelayCallOptions & Pick<SubmitOptions, "notLeaderRetries"> = {},
): Promise<{ quote: SolanaQuote; request: SolanaExecutionRequest; submission: Submission }> {
  const body: QuoteRequest = {
    chainId: request.chainId,
    sellToken: request.sellToken,
    buyToken: request.buyToken,
    sellAmount: request.sellAmount.toString(),
    taker: request.keypair.publicKey.toBase58(),
    ...(request.recipient ? { recipient: request.recipient } : {}),
  };
  const quote = await requestSolanaQuote(request.relayUrl, body, options);
  request.onQuoted?.(quote);
  const execution = { quoteId: quote.quoteId, transaction: signSolanaQuote(request.keypair, quote) };
  request.onSigned?.(execution);
  const submission = await submitExecution(request.relayUrl, execution, {
    ...options,
    idempotencyKey: request.idempotencyKey ?? crypto.randomUUID(),
  });
  return { quote, request: execution, submission };
}
