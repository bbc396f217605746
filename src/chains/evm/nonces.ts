import type { NonceStore } from "../nonce-store";

/**
 * The nonce of the keeper's next transaction. The chain's pending count is the truth once every
 * transaction of the keeper is mined; while some are not, the stored next nonce also covers an RPC node
 * that has not seen them yet.
 */
export function chooseNonce(args: { pending: number; stored: number | null; unmined: boolean }): number {
  return args.unmined ? Math.max(args.stored ?? 0, args.pending) : args.pending;
}

/**
 * One wallet's next nonce, kept in memory so that signing reads nothing from the chain
 * (docs/settlement.md, "The fast path"). It is read once (`ready`, before the wallet's lock): the chain's
 * pending count against the stored next nonce (`chooseNonce`); from then on each signed transaction moves
 * it by one. A refused transaction (`forget`) sends it back to the chain for the next read, since a
 * refusal may mean it no longer matches the chain (someone else used the key, a node lost a transaction).
 */
export class NonceCursor {
  private next: number | null = null;
  /** Bumped by `forget`, so a read begun before it cannot set a nonce the refusal made stale. */
  private generation = 0;
  private reading: Promise<void> | null = null;

  constructor(
    /** The wallet as the nonce store spells it, and as its transactions are kept (`ChainSettler.keeper`). */
    private readonly wallet: { address: string; keeper: string },
    private readonly store: NonceStore,
    /** The chain's pending transaction count of the wallet. */
    private readonly pendingCount: () => Promise<number>,
  ) {}

  /** Whether the next nonce is known, so `take` reads nothing. */
  get known(): boolean {
    return this.next !== null;
  }

  /** Reads the next nonce when it is not known; concurrent calls share one read. */
  async ready(): Promise<void> {
    while (this.next === null) {
      this.reading ??= this.read().finally(() => {
        this.reading = null;
      });
      await this.reading;
    }
  }

  private async read(): Promise<void> {
    const generation = this.generation;
    const pending = await this.pendingCount();
    if (generation !== this.generation || this.next !== null) return;
    this.next = chooseNonce({
      pending,
      stored: this.store.next(this.wallet.address),
      unmined: this.store.hasUnmined(this.wallet.keeper),
    });
  }

  /**
   * The nonce for the transaction signed now; callers hold the wallet's lock. It reads the chain only
   * when nothing was read yet (a wallet's first use, or the first after a refusal).
   */
  async peek(): Promise<number> {
    await this.ready();
    return this.next as number;
  }

  /** The transaction of `nonce` is signed: stores it with `write` in one storage transaction, and moves on. */
  take(nonce: number, write: () => void): void {
    this.store.take(this.wallet.address, nonce, write);
    // A refusal forgotten meanwhile (the indexer's, outside the lock) still has the next use read again.
    if (this.next !== null) this.next = nonce + 1;
  }

  /** The network refused the transaction of `nonce`: its nonce is freed and the next one read again. */
  forget(nonce: number, write: () => void): void {
    this.store.release(this.wallet.address, nonce, write);
    this.next = null;
    this.generation++;
  }
}
