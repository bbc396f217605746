import type { PendingState, PendingTx, TxStore } from "../../src/keeper/pending";

/** The keeper's transaction store in memory, for tests that drive the keeper through its ports. */
export class MemoryTxStore implements TxStore {
  private readonly txs = new Map<string, PendingTx>();

  insertSigned(tx: Omit<PendingTx, "state" | "block" | "replaced" | "since">, now: number): void {
    this.txs.set(tx.hash, structuredClone({ ...tx, state: "signed", block: null, replaced: [], since: now }));
  }

  setState(hash: string, state: PendingState, block: number | null, now: number): void {
    const tx = this.txs.get(hash);
    if (tx) this.txs.set(hash, { ...tx, state, block, since: now });
  }

  replace(hash: string, by: { hash: string; raw: string }, now: number): void {
    const tx = this.txs.get(hash);
    if (!tx) return;
    this.txs.delete(hash);
    this.txs.set(by.hash, {
      ...tx,
      ...by,
      state: "sent",
      replaced: [...tx.replaced, { hash, raw: tx.raw }],
      since: now,
    });
  }

  landedAs(hash: string, landed: { hash: string; raw: string }): void {
    const tx = this.txs.get(hash);
    if (!tx) return;
    this.txs.delete(hash);
    this.txs.set(landed.hash, { ...tx, ...landed });
  }

  remove(hash: string): void {
    this.txs.delete(hash);
  }

  all(): PendingTx[] {
    return [...this.txs.values()].sort((a, b) => a.chainId - b.chainId || a.nonce - b.nonce);
  }

  unconfirmed(chainId: number): { keeper: string; hash: string }[] {
    return this.all()
      .filter((tx) => tx.chainId === chainId && tx.state === "signed")
      .map(({ keeper, hash }) => ({ keeper, hash }));
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
