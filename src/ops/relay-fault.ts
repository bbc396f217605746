import { KeptValue } from "./kept-value";

/**
 * The last fill of a corridor that failed for the relay's own reason (docs/reliability.md, "Blame";
 * docs/operations.md, "Health"): the corridor shows `degraded` with that reason until a fill of it
 * settles again, or an operator resumes it. Kept in the corridor object's storage.
 */
export interface RelayFault {
  reason: string;
  quoteId: string;
  at: string;
}

const FAULT_KEY = "relay_fault";

export class RelayFaults {
  private readonly kept: KeptValue<RelayFault>;

  constructor(kv: SyncKvStorage) {
    this.kept = new KeptValue(kv, FAULT_KEY);
  }

  current(): RelayFault | null {
    return this.kept.get();
  }

  /** A fill of the corridor moved: a relay-blamed failure is kept, a settled fill clears the last one. */
  afterFill(quoteId: string, fill: { status: string; fault?: string | undefined }, now: number): void {
    if (fill.fault) this.kept.set({ reason: fill.fault, quoteId, at: new Date(now).toISOString() });
    else if (fill.status === "settled") this.clear();
  }

  clear(): void {
    this.kept.clear();
  }
}
