/**
 * What the takers did and were told during a chaos run, and what the relay and the chains say at its end:
 * the inputs of the verdict (verdict.ts).
 */
import type { EvmExecutionRequest, ExecutionAnswer, SolanaExecutionRequest } from "../../../src/clients/taker/api";
import type { Attempt } from "./retry";

export type ChainKind = "evm" | "solana";

/** One submission, with every attempt its taker made with the same Idempotency-Key. */
export interface SwapRecord {
  kind: ChainKind;
  taker: string;
  quoteId: string;
  idempotencyKey: string;
  /** The body sent, so the key can be asked again at the end with the same request. */
  request: EvmExecutionRequest | SolanaExecutionRequest;
  attempts: Attempt[];
  /** The execution the taker was answered with (202 submitted, 200 requote or duplicate), or null. */
  answer: ExecutionAnswer | null;
}

/** A limit order placed during the run. */
export interface LimitRecord {
  taker: string;
  limitOrderId: string | null;
  status: string;
  /** The quote that filled it, once filled. */
  quoteId: string | null;
}

export interface ChaosLedger {
  swaps: SwapRecord[];
  /** Every attempt of every quote request, across all takers. */
  quoteAttempts: Attempt[];
  limitOrders: LimitRecord[];
  /** What a taker could not do for a reason other than the relay's answers (a quote it refused to sign). */
  takerErrors: string[];
}

export const emptyLedger = (): ChaosLedger => ({ swaps: [], quoteAttempts: [], limitOrders: [], takerErrors: [] });

/** The answer to a key asked again at the end. */
export interface KeyAnswer {
  status: number;
  executionId: string | null;
  duplicate: boolean;
  code: string | null;
}

/** A quote as the relay records it at the end. */
export interface QuoteView {
  quoteId: string;
  taker: string;
  status: string;
  sellToken: string;
  buyToken: string;
  takerPays: string;
  received: string;
  /** The settling transaction (hash or signature), when settled. */
  txHash: string | null;
}

export interface RelayView {
  keys: ReadonlyMap<string, KeyAnswer>;
  quotes: ReadonlyMap<string, QuoteView>;
  /** Each answered execution's status at the end. */
  executions: ReadonlyMap<string, string>;
}

/** A fill the chain itself shows: an `RfqFilled` or `LimitFilled` log, or a Solana swap that landed. */
export interface ChainFill {
  kind: ChainKind;
  taker: string;
  /** The quote it names (the event's `quoteId`, the swap's memo); null when it names none. */
  quoteId: string | null;
  txHash: string;
}

export interface BalanceView {
  kind: ChainKind;
  taker: string;
  token: string;
  before: bigint;
  after: bigint;
}

export interface ChainView {
  fills: readonly ChainFill[];
  balances: readonly BalanceView[];
}
