/**
 * The blockhashes a transaction may name. A validator accepts a transaction whose blockhash was produced
 * at most 150 blocks ago (its `lastValidBlockHeight` is that block's height + 150); LiteSVM knows only its
 * current blockhash, so the harness keeps the window itself. On this chain block height = slot.
 */

/** How many blocks a blockhash stays valid after its own (agave's MAX_PROCESSING_AGE). */
export const MAX_PROCESSING_AGE = 150;

export class BlockhashWindow {
  private readonly slots = new Map<string, number>();
  private readonly hashes = new Map<number, string>();

  /** Records the blockhash produced at `slot` and forgets those too old to matter at that slot. */
  record(slot: number, blockhash: string): void {
    this.slots.set(blockhash, slot);
    this.hashes.set(slot, blockhash);
    for (const [old, hash] of this.hashes) {
      if (slot - old <= MAX_PROCESSING_AGE) break;
      this.hashes.delete(old);
      this.slots.delete(hash);
    }
  }

  /** The slot that produced `blockhash`, while it is still known. */
  slotOf(blockhash: string): number | undefined {
    return this.slots.get(blockhash);
  }

  /** The blockhash produced at `slot`, if that slot is within the window. */
  blockhashAt(slot: number): string | undefined {
    return this.hashes.get(slot);
  }

  /** The slots and blockhashes in the window, newest first (the order of the SlotHashes sysvar). */
  recent(): { slot: number; blockhash: string }[] {
    return [...this.hashes].reverse().map(([slot, blockhash]) => ({ slot, blockhash }));
  }

  /** Whether a transaction naming `blockhash` may still land at `currentSlot`. */
  isValid(blockhash: string, currentSlot: number): boolean {
    const slot = this.slots.get(blockhash);
    return slot !== undefined && currentSlot - slot <= MAX_PROCESSING_AGE;
  }
}

/** The last block height at which a transaction naming the blockhash of `slot` may land. */
export function lastValidBlockHeight(slot: number): number {
  return slot + MAX_PROCESSING_AGE;
}
