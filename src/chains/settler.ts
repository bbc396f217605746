/** The settlement half of a chain (docs/settlement.md): what the keeper asks of a chain, never viem or web3.js. */

import type { Erc2612Permit } from "../schemas/execution";

export type { Erc2612Permit };

/** What the keeper settles: a stored quote's terms, what the taker signed, and the taker's signature. */
export interface FillRequest {
  quoteId: string;
  taker: string;
  sellToken: string;
  takerPays: string;
  /** The quote's `signing` JSON as the auction stored it. */
  signing: unknown;
  signature: string;
  permit: Erc2612Permit | null;
}

/** A transaction to the settlement contract, chain-encoded; opaque to the keeper. */
export interface FillCall {
  to: string;
  data: string;
}

/** What Permit2 may spend of the taker's sell token, as the chain shows it. */
export interface TakerFunds {
  permit2Allowance: bigint;
}

/**
 * What a simulated revert means for the submission: a requote (the reason says who must act), a taker
 * signature the contracts refuse (400 `bad_signature`), or a keeper the executor does not accept, which
 * no taker or resolver can fix (503 `not_leader`).
 */
export type RevertOutcome =
  | { kind: "requote"; reason: string }
  | { kind: "bad_signature" }
  | { kind: "keeper_refused"; reason: "keeper_not_allowed" };

export type Simulation = { ok: true; gas: bigint } | ({ ok: false } & RevertOutcome);

/** Fees for the next transaction, in the chain's native unit. */
export type GasPricing = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | { gasPrice: bigint };

export interface SignedTransaction {
  hash: string;
  raw: string;
  nonce: number;
}

/**
 * What the network said to a broadcast: accepted it, already had it, refused it (nothing was sent), or
 * did not answer (it may or may not have the transaction).
 */
export type BroadcastResult =
  | { status: "accepted" }
  | { status: "known" }
  | { status: "refused"; reason: string }
  | { status: "unreachable"; reason: string };

/** One settlement event of the executor, as the indexer reads it. */
export interface FillEvent {
  orderHash: string;
  /** The relay's quote id (`q_…`) the fill settles. */
  quoteId: string;
  resolver: string;
  filler: string;
  taker: string;
  sellToken: string;
  sellAmount: bigint;
  buyToken: string;
  outputAmount: bigint;
  received: bigint;
  fee: bigint;
  gasFee: bigint;
  logIndex: number;
}

export interface TxReceipt {
  hash: string;
  status: "success" | "reverted";
  block: number;
  blockHash: string;
  /** ISO 8601, from the block's timestamp. */
  blockTime: string;
  gasUsed: bigint;
  from: string;
  fills: FillEvent[];
}

/** Where a transaction the keeper sent stands on the chain. */
export type TxPresence = "known" | "unknown";

/** The RPC did not answer (network error, timeout, 5xx): nothing can be concluded from it. */
export class ChainUnavailableError extends Error {
  override readonly name = "ChainUnavailableError";
}

/**
 * The chain-specific half of settlement, for one chain and one keeper key. The keeper (durable-objects/
 * keeper.ts and src/keeper/) uses only this, never viem or web3.js. Every RPC method throws
 * `ChainUnavailableError` when the chain does not answer.
 */
export interface ChainSettler {
  readonly chainId: number;
  /** The keeper's address on this chain: the submitter of every fill. */
  readonly keeper: string;
  /** Whether `signature` is the taker's over the quote's stored typed data. No RPC. */
  verifyTakerSignature(request: FillRequest): Promise<boolean>;
  /** The executor call that settles the request (`fill`, or `fillWithPermit` with a permit). No RPC. */
  fillCall(request: FillRequest): FillCall;
  takerFunds(request: FillRequest): Promise<TakerFunds>;
  /** eth_call from the keeper, then a gas estimate; a revert is mapped to a requote reason. */
  simulate(call: FillCall, request: FillRequest): Promise<Simulation>;
  /** The keeper's next nonce counting pending transactions, and fees for a transaction now. */
  accountState(): Promise<{ pendingNonce: number; minedNonce: number; pricing: GasPricing }>;
  sign(call: FillCall, gas: bigint, nonce: number, pricing: GasPricing): Promise<SignedTransaction>;
  /** eth_sendRawTransaction; never throws. */
  broadcast(tx: { raw: string; hash: string }): Promise<BroadcastResult>;
  presence(hash: string): Promise<TxPresence>;
  receipt(hash: string): Promise<TxReceipt | null>;
  blockNumber(): Promise<number>;
  /** Why a mined transaction reverted, replayed as a call on the block before it; null when unknown. */
  revertReason(call: FillCall, block: number, request: FillRequest): Promise<string | null>;
}
