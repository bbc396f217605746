/**
 * The chain's fee data (gas price, or EIP-1559 fees), kept fresh in the background so that signing never
 * waits for it (docs/settlement.md, "The fast path"). Each use (`ready`, before the wallet's lock) starts
 * a read when the data is older than `refreshMs`, without waiting for it; only data older than `maxAgeMs`
 * (or none at all: the first use, or a keeper idle for a while) is waited for. One read at a time.
 */
export class FeeCache<Fees> {
  private value: { fees: Fees; at: number } | null = null;
  private reading: Promise<Fees> | null = null;

  constructor(
    private readonly read: () => Promise<Fees>,
    private readonly now: () => number,
    private readonly limits: { refreshMs: number; maxAgeMs: number },
    private readonly onError: (e: unknown) => void = () => {},
  ) {}

  /** Makes sure fees not older than `maxAgeMs` are there, and starts a refresh when they are not fresh. */
  async ready(): Promise<void> {
    const age = this.value ? this.now() - this.value.at : Number.POSITIVE_INFINITY;
    if (age > this.limits.maxAgeMs) {
      await this.refresh();
    } else if (age > this.limits.refreshMs) {
      this.refresh().catch(this.onError);
    }
  }

  /** The fees to sign with: the kept ones, or (only before any was read) a read now. */
  async current(): Promise<Fees> {
    return this.value ? this.value.fees : this.refresh();
  }

  private refresh(): Promise<Fees> {
    this.reading ??= this.read()
      .then((fees) => {
        this.value = { fees, at: this.now() };
        return fees;
      })
      .finally(() => {
        this.reading = null;
      });
    return this.reading;
  }
}
