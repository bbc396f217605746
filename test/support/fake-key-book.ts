import type { KeyBook } from "../../src/keeper/key-book";

/** The leader's key book in memory (src/keeper/key-book.ts has the SQL one), with the same rules. */
export class MemoryKeyBook implements KeyBook {
  private readonly held = new Map<string, { key: string; quoteId: string; until: number }>();

  take(key: string, quoteId: string, now: number, until: number): { others: string[]; added: boolean } {
    const live = [...this.held.values()].filter((k) => k.key === key && k.quoteId !== quoteId && k.until > now);
    const others = live.sort((a, b) => b.until - a.until).map((k) => k.quoteId);
    const id = JSON.stringify([key, quoteId]);
    const held = this.held.get(id);
    const added = !held || held.until <= now;
    if (added) this.held.set(id, { key, quoteId, until });
    return { others, added };
  }

  release(key: string, quoteId: string): void {
    this.held.delete(JSON.stringify([key, quoteId]));
  }
}
