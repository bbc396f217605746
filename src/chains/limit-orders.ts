import type { ChainConfig } from "../config";
import type { Erc2612Permit } from "../schemas";
import type { Readiness } from "./settler";

/**
 * The chain side of limit orders (docs/limit-orders.md): what the taker signs, its check, the nonce
 * that identifies an order and the call that revokes it, and the chain reads that placing needs. Limit
 * orders exist on EVM chains only; `limitOrdersFor` is null on any other, which the routes answer with
 * 400 `limit_orders_unsupported`.
 */

/** An order's signed terms, in base units and unix seconds; addresses as the chain spells them. */
export interface SignedLimitTerms {
  taker: string;
  recipient: string;
  sellToken: string;
  buyToken: string;
  sellAmount: bigint;
  minOut: bigint;
  gasFeeToken: string;
  maxGasFee: bigint;
  permitAmount: bigint;
  nonce: bigint;
  deadline: bigint;
}

/** The call that ends an order's signature on chain (record 2.8 `revoke`), JSON-ready. */
export interface RevokeCall {
  permit2: string;
  /** Where to send `data`: the same Permit2. */
  to: string;
  wordPos: string;
  mask: string;
  data: string;
}

export interface LimitOrderChain {
  /** The contract that executes orders (record 2.7 `executor`): the chain's reactor. */
  readonly executor: string;
  readonly permit2: string;
  /** A fresh random nonce for a new order. */
  newNonce(): bigint;
  /** What the taker signs for these terms, JSON-ready (integers as decimal strings). */
  typedData(terms: SignedLimitTerms): Record<string, unknown>;
  /** The terms a draft's typed data carries; null when it is not a limit order's typed data on this chain. */
  termsOf(typedData: Record<string, unknown>): SignedLimitTerms | null;
  /** The chain id the typed data is signed for, as its domain says; null when it says none. */
  signedChainId(typedData: Record<string, unknown>): number | null;
  /**
   * Why the chain would refuse `signature` as the taker's over the typed data of `terms`, said so that the
   * taker can mend it (a 400 `bad_signature`'s message); null when it would accept it. Reads the taker's
   * code (a smart wallet, an EIP-7702 delegation) and asks it, as Permit2 will. Throws
   * `ChainUnavailableError` when the chain does not answer.
   */
  takerSignatureFault(terms: SignedLimitTerms, signature: string): Promise<string | null>;
  revoke(nonce: bigint): RevokeCall;
  /**
   * Whether the order's permit can be pulled: the taker holds `permitAmount` of the sell token and
   * Permit2 may spend it, or `erc2612` approves Permit2 for it until the order's deadline. Throws
   * `ChainUnavailableError` when the chain does not answer.
   */
  readiness(terms: SignedLimitTerms, erc2612: Erc2612Permit | null): Promise<Readiness>;
  /** Whether the order's nonce is spent or invalidated on chain. Throws `ChainUnavailableError` likewise. */
  nonceSpent(taker: string, nonce: bigint): Promise<boolean>;
  /**
   * Placed orders' taker sides as the chain shows them now (unix seconds `nowSeconds`), every order's reads
   * in one batch: the nonce, the balance and Permit2's allowance of the sell token, what an EIP-2612 permit
   * with the order can still grant in its stead, and for an order asked to, whether its recipient takes the
   * buy token. Throws `ChainUnavailableError` likewise.
   */
  takerSides(orders: readonly TakerSideQuery[], nowSeconds: number): Promise<TakerSide[]>;
}

/** One placed order, as far as its taker's side goes. */
export interface TakerSideQuery {
  taker: string;
  token: string;
  amount: bigint;
  nonce: bigint;
  erc2612: Erc2612Permit | null;
  /** Whether the buy token is to show it takes a transfer to `recipient` (its last fill was refused for it). */
  recipient: { buyToken: string; address: string } | null;
}

/**
 * What the chain shows of an order's taker side, read before any resolver is asked: whole, its Permit2
 * nonce spent or invalidated (the order can never fill), or short of what only the taker can mend (it
 * waits): `insufficient_balance`, `insufficient_allowance`, `permit_spent`, `permit_expired`,
 * `recipient_refused`.
 */
export type TakerSide = { kind: "whole" } | { kind: "revoked" } | { kind: "short"; reason: string };

/** What the limit-order routes take to reach a chain: the real RPC, or a fake in the integration tests. */
export type LimitOrderChains = (chain: ChainConfig) => LimitOrderChain | null;
