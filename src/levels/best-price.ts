import { outputAt, type Rung } from "./ladder";

/** A ladder a price may be made from: its node (lowercase address), rungs and when it came in. */
export interface PricedLadder {
  node: string;
  rungs: readonly Rung[];
  at: number;
}

/**
 * The best output over `ladders` for `sellAmount` (docs/api.md, "Indicative prices"), the ladders that
 * cover the amount and the freshest of them; null when none covers it.
 */
export function bestOutput(
  ladders: readonly PricedLadder[],
  sellAmount: bigint,
): { outputAmount: bigint; covering: number; at: number } | null {
  let best: bigint | null = null;
  let covering = 0;
  let at = 0;
  for (const ladder of ladders) {
    const out = outputAt(ladder.rungs, sellAmount);
    if (out === null) continue;
    covering++;
    at = Math.max(at, ladder.at);
    if (best === null || out > best) best = out;
  }
  return best === null ? null : { outputAmount: best, covering, at };
}

/**
 * The corridor's best ladder: at every rung amount of every ladder, the best output of the ladders that
 * cover it, by increasing amount. Where two ladders cross between rungs the envelope is drawn through
 * the rungs only, so it never promises more than some ladder does at a rung.
 */
export function bestLadder(ladders: readonly PricedLadder[]): Rung[] {
  const amounts = [...new Set(ladders.flatMap((l) => l.rungs.map((r) => r.sellAmount)))].sort((a, b) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  return amounts.flatMap((sellAmount) => {
    const best = bestOutput(ladders, sellAmount);
    return best ? [{ sellAmount, outputAmount: best.outputAmount }] : [];
  });
}
