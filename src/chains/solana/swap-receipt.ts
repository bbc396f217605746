import { base64 } from "@scure/base";
import { VersionedTransaction } from "@solana/web3.js";
import { swapOrderHash } from "./order-hash";
import { type SwapTransfer, swapTransfers } from "./swap-transfers";

/** An entry of `preTokenBalances` / `postTokenBalances` in a `getTransaction` answer. */
export interface TokenBalanceJson {
  accountIndex: number;
  mint: string;
  owner?: string;
  uiTokenAmount: { amount: string };
}

/** The parts of a `getTransaction` answer (`encoding: "base64"`) a receipt is read from. */
export interface TransactionJson {
  slot: number;
  /** Unix seconds; null (or left out) when the node does not know the block's time. */
  blockTime?: number | null;
  transaction: [string, string];
  meta: {
    err: unknown;
    fee: number;
    /** Each account's lamports before and after, in account order (the fee payer's first). */
    preBalances?: number[];
    postBalances?: number[];
    computeUnitsConsumed?: number;
    preTokenBalances?: TokenBalanceJson[] | null;
    postTokenBalances?: TokenBalanceJson[] | null;
    loadedAddresses?: { writable: string[]; readonly: string[] } | null;
  } | null;
}

/** How much of `mint` one token account gained (negative: lost) in the transaction. */
export interface TokenBalanceChange {
  account: string;
  owner: string | null;
  mint: string;
  change: bigint;
}

/** A landed swap as the keeper records it: the Solana side of the spec's receipt. */
export interface SwapReceipt {
  signature: string;
  /** The order it settled: the hash of its message (`swapOrderHash`), the same as its quote's transaction's. */
  orderHash: string;
  slot: number;
  /** ISO 8601, from the block's time; null when the node does not know it. */
  blockTime: string | null;
  status: "success" | "reverted";
  /**
   * The compute units the transaction consumed: what a receipt's `gasUsed` is on Solana; null when the
   * node does not report them (`computeUnitsConsumed` is optional in `getTransaction`'s metadata).
   */
  unitsConsumed: bigint | null;
  /** The network fee in lamports, paid by the keeper. */
  fee: bigint;
  /**
   * The lamports the keeper spent on the transaction: its balance before less after, as fee payer (the
   * first account). That is the network fee plus the rent of every token account the swap created
   * (docs/settlement.md, "What a Solana fill costs"); a reverted swap created none, so only its fee.
   * The network fee alone when the node reports no balances.
   */
  keeperSpent: bigint;
  /** Every token account whose balance moved, from `preTokenBalances` and `postTokenBalances`. */
  changes: TokenBalanceChange[];
  /**
   * The accounts the transaction created: no lamports before it, some after (`preBalances`,
   * `postBalances`); none when the node reports no balances.
   */
  created: string[];
  /** The legs that moved, in `swapLegs` (or `makerLegs`) order; none when the transaction failed (it is atomic). */
  fills: SwapTransfer[];
}

function amountsByAccount(balances: TokenBalanceJson[] | null | undefined): Map<number, TokenBalanceJson> {
  return new Map((balances ?? []).map((b) => [b.accountIndex, b]));
}

/** The token balance changes of a transaction, account by account, in account order; unchanged ones left out. */
export function tokenBalanceChanges(
  pre: TokenBalanceJson[] | null | undefined,
  post: TokenBalanceJson[] | null | undefined,
  accountKeys: string[],
): TokenBalanceChange[] {
  const before = amountsByAccount(pre);
  const after = amountsByAccount(post);
  const indexes = [...new Set([...before.keys(), ...after.keys()])].sort((a, b) => a - b);
  const changes: TokenBalanceChange[] = [];
  for (const index of indexes) {
    const a = before.get(index);
    const b = after.get(index);
    const change = BigInt(b?.uiTokenAmount.amount ?? "0") - BigInt(a?.uiTokenAmount.amount ?? "0");
    if (change === 0n) continue;
    changes.push({
      account: accountKeys[index] ?? `#${index}`,
      owner: b?.owner ?? a?.owner ?? null,
      mint: (b ?? a)?.mint ?? "",
      change,
    });
  }
  return changes;
}

/** The fee payer's lamports before less after (`SwapReceipt.keeperSpent`). */
function keeperSpent(meta: NonNullable<TransactionJson["meta"]>): bigint {
  const before = meta.preBalances?.[0];
  const after = meta.postBalances?.[0];
  if (before === undefined || after === undefined) return BigInt(meta.fee);
  return BigInt(before) - BigInt(after);
}

/** The accounts that held no lamports before the transaction and some after (`SwapReceipt.created`). */
function createdAccounts(meta: NonNullable<TransactionJson["meta"]>, accountKeys: string[]): string[] {
  const before = meta.preBalances ?? [];
  const after = meta.postBalances ?? [];
  return accountKeys.filter((_, i) => before[i] === 0 && (after[i] ?? 0) > 0);
}

/**
 * The receipt of a landed swap from its `getTransaction` answer. The legs are the transaction's
 * `TransferChecked` instructions; each moved exactly its amount, since the transaction is atomic and
 * succeeded, and `changes` shows the same money account by account.
 */
export function swapReceiptOf(signature: string, tx: TransactionJson): SwapReceipt {
  if (!tx.meta) throw new Error(`the transaction ${signature} has no status metadata`);
  const message = VersionedTransaction.deserialize(base64.decode(tx.transaction[0])).message;
  const loaded = tx.meta.loadedAddresses;
  const accountKeys = [
    ...message.staticAccountKeys.map((k) => k.toBase58()),
    ...(loaded?.writable ?? []),
    ...(loaded?.readonly ?? []),
  ];
  const success = tx.meta.err === null || tx.meta.err === undefined;
  return {
    signature,
    orderHash: swapOrderHash(message.serialize()),
    slot: tx.slot,
    blockTime: typeof tx.blockTime === "number" ? new Date(tx.blockTime * 1000).toISOString() : null,
    status: success ? "success" : "reverted",
    unitsConsumed: tx.meta.computeUnitsConsumed === undefined ? null : BigInt(tx.meta.computeUnitsConsumed),
    fee: BigInt(tx.meta.fee),
    keeperSpent: keeperSpent(tx.meta),
    changes: tokenBalanceChanges(tx.meta.preTokenBalances, tx.meta.postTokenBalances, accountKeys),
    created: createdAccounts(tx.meta, accountKeys),
    fills: success ? swapTransfers(message, accountKeys) : [],
  };
}
