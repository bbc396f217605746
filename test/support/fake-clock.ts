import type { Clock } from "../../src/auction";

/** Lets every promise that can settle now settle (one macrotask runs after the whole microtask queue). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A clock that moves only when told (`advance`): an auction's window, backoffs and waits run at once and in
 * order, without sleeping. It starts at the real time, so fixtures dated with `Date.now()` are fresh.
 */
export class FakeClock implements Clock {
  private at = Date.now();
  private timers: { at: number; seq: number; run: () => void }[] = [];
  private seq = 0;

  now(): number {
    return this.at;
  }

  elapsed(): number {
    return this.at;
  }

  after(ms: number, run: () => void): () => void {
    const timer = { at: this.at + ms, seq: this.seq++, run };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  /** How many timers are armed and not yet run. */
  get pending(): number {
    return this.timers.length;
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.after(ms, resolve));
  }

  /** Moves time on by `ms`, running each timer due on the way at its time, with what it starts settled. */
  async advance(ms: number): Promise<void> {
    const end = this.at + ms;
    await settle();
    for (;;) {
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.at = Math.max(this.at, due.at);
      due.run();
      await settle();
    }
    this.at = end;
    await settle();
  }
}
