/** How long a read of the demoted set serves auctions before it is read again. */
const DEMOTED_TTL_MS = 10_000;

/**
 * Demotions change rarely: auctions read them from a short-lived cache instead of the directory each
 * time. A failed read counts as nobody demoted, until the next read.
 */
export class DemotionCache {
  private cached: { at: number; set: Promise<ReadonlySet<string>> } | null = null;

  constructor(private readonly read: (at: string) => Promise<ReadonlySet<string>>) {}

  /** Lowercase addresses of the resolvers demoted now. */
  get(now = Date.now()): Promise<ReadonlySet<string>> {
    if (!this.cached || now - this.cached.at > DEMOTED_TTL_MS) {
      const set = this.read(new Date(now).toISOString()).catch(() => new Set<string>());
      this.cached = { at: now, set };
    }
    return this.cached.set;
  }

  /** An admin changed a demotion: the next auction reads afresh. */
  forget(): void {
    this.cached = null;
  }
}
