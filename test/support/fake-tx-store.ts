import type { PendingState, PendingTx, TxStore } from "../../src/keeper/pending";

/** The keeper's transaction store in memory, for tests that drive the keeper through its ports. */
export class MemoryTxStore implements TxStore {
  private readonly txs = new Map<string, PendingTx>();

  insertSigned(tx: Omit<PendingTx, "state" | "block">): void {
    this.txs.set(tx.hash, structuredClone({ ...tx, state: "signed", block: null }));
  }

  setState(hash: string, state: PendingState, block: number | null): void {
    const tx = this.txs.get(hash);
    if (tx) this.txs.set(hash, { ...tx, state, block });
  }

  remove(hash: string): void {
    this.txs.delete(hash);
  }

  all(): PendingTx[] {
    return [...this.txs.values()].sort((a, b) => a.chainId - b.chainId || a.nonce - b.nonce);
  }

  get(hash: string): PendingTx | null {
    return this.txs.get(hash) ?? null;
  }

  forQuote(quoteId: string): PendingTx | null {
    return this.all().find((tx) => tx.submission.quoteId === quoteId) ?? null;
  }

  count(): number {
    return this.txs.size;
  }
}
