/**
 * The relay's overhead of each quote split by its `Server-Timing` phases (docs/api.md, "Server-Timing"):
 * the parts add up to the overhead quote by quote, so their means add up to its mean.
 */
import type { QuoteTiming } from "./rfq-relay";
import { fmt, percentile } from "./stats";

export class OverheadSplit {
  private readonly parts = new Map<string, number[]>();

  add(t: QuoteTiming): void {
    const [total, auction, ranking, storage] = ["total", "auction", "ranking", "storage"].map((n) => t.phases.get(n));
    if (total === undefined || auction === undefined || ranking === undefined || storage === undefined) return;
    const slowest = t.latency - t.overhead;
    this.push("outside the handler (taker's latency − total)", t.latency - total);
    this.push("handler around the auction (total − auction − ranking − storage)", total - auction - ranking - storage);
    this.push("ranking", ranking);
    this.push("storage", storage);
    this.push("auction past the slowest reply (auction − slowest)", auction - slowest);
  }

  private push(name: string, ms: number): void {
    const list = this.parts.get(name) ?? [];
    list.push(ms);
    this.parts.set(name, list);
  }

  describe(): string {
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    return [...this.parts]
      .map(([name, xs]) => `${name} mean ${fmt(mean(xs))}, p50 ${fmt(percentile(xs, 50))}`)
      .join("; ");
  }
}
