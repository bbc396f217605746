/**
 * What `npm run demo` prints (scripts/demo.ts, docs/local-stack.md "The demo"): each line stamped with
 * the seconds since the demo started, and the quote's timeline events in words.
 */
import type { QuoteEvent } from "../../src/clients/taker/follow";

const started = Date.now();

export const say = (line: string) =>
  console.log(`${`+${((Date.now() - started) / 1000).toFixed(1)}s`.padStart(7)}  ${line}`);

/**
 * One event of the quote's stream, with its id; `block` names what a settlement's `block` counts (a
 * Solana slot).
 */
export function describeEvent(e: QuoteEvent, block = "block"): string {
  if (e.event === "cancelled") return `#${e.id} cancelled   (${e.data.at})`;
  const entry = e.data;
  const detail = entry.detail ?? {};
  const extra =
    entry.event === "submitted"
      ? ` tx ${detail.txHash}`
      : entry.event === "settled"
        ? ` ${block} ${detail.block}`
        : entry.event === "quoted"
          ? ` in ${detail.latencyMs} ms`
          : entry.detail
            ? ` ${JSON.stringify(entry.detail)}`
            : "";
  return `#${e.id} ${entry.event.padEnd(10)}${extra}   (${entry.at})`;
}
