/**
 * The transactions that landed, by signature, with what their metadata reports; and the compute unit
 * prices paid per slot, for `getRecentPrioritizationFees`. LiteSVM keeps only a short history of its own,
 * so this ledger is what answers "did it land" and refuses a transaction that already did.
 */
import type { TokenBalance } from "./balances";
import { MAX_PROCESSING_AGE } from "./blockhashes";
import type { Execution } from "./litesvm-bridge";
import type { WireTransaction } from "./wire";

export interface LandedTransaction {
  signature: string;
  slot: number;
  blockTime: number;
  wire: WireTransaction;
  accountKeys: string[];
  loadedAddresses: { writable: string[]; readonly: string[] };
  fee: bigint;
  preBalances: bigint[];
  postBalances: bigint[];
  preTokenBalances: TokenBalance[];
  postTokenBalances: TokenBalance[];
  execution: Execution;
}

/** The compute unit prices (micro-lamports) paid in one slot, overall and per write-locked account. */
export interface SlotFees {
  slot: number;
  min: bigint | null;
  byAccount: Map<string, bigint>;
}

export interface PrioritizationFee {
  slot: number;
  /** Micro-lamports per compute unit: a u64, answered exactly. */
  prioritizationFee: bigint;
}

const lower = (a: bigint | null | undefined, b: bigint): bigint => (a === null || a === undefined || b < a ? b : a);

/**
 * What `getRecentPrioritizationFees` answers for a slot: the lowest price paid in it, raised to the lowest
 * price paid to write-lock any of `accounts` when that is higher (as agave's prioritization fee cache).
 */
export function prioritizationFeeOf(fees: SlotFees | undefined, accounts: readonly string[]): bigint {
  let fee = fees?.min ?? 0n;
  for (const account of accounts) {
    const paid = fees?.byAccount.get(account);
    if (paid !== undefined && paid > fee) fee = paid;
  }
  return fee;
}

export class Ledger {
  private readonly landed = new Map<string, LandedTransaction>();
  private readonly fees = new Map<number, SlotFees>();

  get size(): number {
    return this.landed.size;
  }

  has(signature: string): boolean {
    return this.landed.has(signature);
  }

  get(signature: string): LandedTransaction | undefined {
    return this.landed.get(signature);
  }

  /** The transactions that named `address` among their accounts (loaded ones included), newest first. */
  involving(address: string): LandedTransaction[] {
    const out: LandedTransaction[] = [];
    for (const tx of this.landed.values()) if (tx.accountKeys.includes(address)) out.push(tx);
    return out.reverse();
  }

  /** Keeps a landed transaction, and its price when it succeeded. */
  add(tx: LandedTransaction, unitPrice: bigint, writable: readonly string[]): void {
    this.landed.set(tx.signature, tx);
    if (tx.execution.err !== null) return;
    const slot = this.fees.get(tx.slot) ?? { slot: tx.slot, min: null, byAccount: new Map<string, bigint>() };
    slot.min = lower(slot.min, unitPrice);
    for (const account of writable) slot.byAccount.set(account, lower(slot.byAccount.get(account), unitPrice));
    this.fees.set(tx.slot, slot);
    for (const old of this.fees.keys()) {
      if (tx.slot - old < MAX_PROCESSING_AGE) break;
      this.fees.delete(old);
    }
  }

  /** The prioritization fee of each of the last 150 slots up to `currentSlot`, oldest first. */
  recentPrioritizationFees(currentSlot: number, accounts: readonly string[]): PrioritizationFee[] {
    const first = Math.max(0, currentSlot - MAX_PROCESSING_AGE + 1);
    const out: PrioritizationFee[] = [];
    for (let slot = first; slot <= currentSlot; slot++) {
      out.push({ slot, prioritizationFee: prioritizationFeeOf(this.fees.get(slot), accounts) });
    }
    return out;
  }
}
