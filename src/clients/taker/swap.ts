import type { Address, Hex, LocalAccount, PublicClient } from "viem";
import type { Erc2612Permit, EvmExecutionRequest, QuoteRequest } from "./api";
import { permit2Allowance, signPermit2Approval } from "./permit";
import {
  type RelayCallOptions,
  requestQuote,
  type SignableQuote,
  type Submission,
  type SubmitOptions,
  submitExecution,
} from "./relay";
import { quotePermit2, signQuote } from "./sign";

/** How long an EIP-2612 permit sent with a submission stays usable. */
const PERMIT_LIFETIME_SECONDS = 3_600n;

export interface SignedQuote {
  quote: SignableQuote;
  signature: Hex;
  /** Sent along when Permit2 may not yet pull what the quote needs. */
  permit: Erc2612Permit | null;
  /** What `POST /v1/executions` takes. */
  request: EvmExecutionRequest;
}

/**
 * Signs a quote and, when Permit2's allowance for the sell token is short of `takerPays`, an EIP-2612
 * permit for Permit2 to go with it, so the submission settles without a prior `approve`.
 */
export async function signForSubmission(
  client: PublicClient,
  account: LocalAccount,
  quote: SignableQuote,
  options: { now?: () => number } = {},
): Promise<SignedQuote> {
  const permit2 = quotePermit2(quote);
  const signature = await signQuote(account, quote);
  const allowance = await permit2Allowance(client, {
    token: quote.sellToken as Address,
    owner: account.address,
    permit2,
  });
  let permit: Erc2612Permit | null = null;
  if (allowance < BigInt(quote.takerPays)) {
    const now = BigInt(Math.floor((options.now ?? Date.now)() / 1000));
    permit = await signPermit2Approval(client, {
      account,
      token: quote.sellToken as Address,
      permit2,
      deadline: now + PERMIT_LIFETIME_SECONDS,
    });
  }
  return {
    quote,
    signature,
    permit,
    // The minimum the witness signs goes along, so a quote that says otherwise is refused naming it.
    request: { quoteId: quote.quoteId, signature, minReceived: quote.minReceived, ...(permit ? { permit } : {}) },
  };
}

export interface SwapRequest {
  relayUrl: string;
  /** Reads allowances and permit nonces of the quote's chain. */
  client: PublicClient;
  account: LocalAccount;
  sellToken: string;
  buyToken: string;
  /** Base units. */
  sellAmount: bigint;
  recipient?: string;
  chainId?: number;
  /** The tolerance below `received` the taker signs, in basis points (docs/settlement.md, "When the winner fades"). */
  slippageBps?: number;
  idempotencyKey?: string;
  /** After each step, for a caller that shows progress. */
  onQuoted?: (quote: SignableQuote) => void;
  onSigned?: (signed: SignedQuote) => void;
}

/**
 * One swap up to its submission: quote, sign (with a permit when needed), `POST /v1/executions`.
 * Follow it to `final` with `followToFinal`.
 */
export async function swap(
  request: SwapRequest,
  options: RelayCallOptions & Pick<SubmitOptions, "notLeaderRetries"> = {},
): Promise<{ signed: SignedQuote; submission: Submission }> {
  const body: QuoteRequest = {
    sellToken: request.sellToken,
    buyToken: request.buyToken,
    sellAmount: request.sellAmount.toString(),
    taker: request.account.address,
    ...(request.recipient ? { recipient: request.recipient } : {}),
    ...(request.chainId !== undefined ? { chainId: request.chainId } : {}),
    ...(request.slippageBps !== undefined ? { slippageBps: request.slippageBps } : {}),
  };
  const quote = await requestQuote(request.relayUrl, body, options);
  request.onQuoted?.(quote);
  const signed = await signForSubmission(request.client, request.account, quote);
  request.onSigned?.(signed);
  const submission = await submitExecution(request.relayUrl, signed.request, {
    ...options,
    idempotencyKey: request.idempotencyKey ?? crypto.randomUUID(),
  });
  return { signed, submission };
}
