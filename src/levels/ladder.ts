/**
 * A resolver's price ladder as pure rules (docs/resolver-protocol.md, "Price ladders"): which ladders are
 * well formed, what a ladder pays for an amount, and how far a firm bid fell short of it. Amounts are
 * bigint base units throughout; no float touches them.
 */

/** One rung: what the node would pay (`outputAmount`) for `sellAmount`. */
export interface Rung {
  sellAmount: bigint;
  outputAmount: bigint;
}

/** Why a `levels` frame was refused, the `code` of its `error` frame. */
export type LevelsRefusal =
  | "bad_levels"
  | "levels_zero_amount"
  | "levels_unsorted"
  | "levels_rate_improves"
  | "levels_wrong_corridor"
  | "levels_rate_limited";

export type LadderCheck = { ok: true; rungs: Rung[] } | { ok: false; code: LevelsRefusal; message: string };

const BPS = 10_000n;

/**
 * A ladder's rungs, or why they are refused: every amount above zero, `sellAmount` strictly increasing
 * and the rate (`outputAmount / sellAmount`) never better for a larger amount. The frame's schema has
 * already checked their shape (base-unit strings, at most 20 rungs).
 */
export function checkLadder(levels: readonly { sellAmount: string; outputAmount: string }[]): LadderCheck {
  const rungs = levels.map((l) => ({ sellAmount: BigInt(l.sellAmount), outputAmount: BigInt(l.outputAmount) }));
  for (const [i, r] of rungs.entries()) {
    if (r.sellAmount <= 0n || r.outputAmount <= 0n) {
      return { ok: false, code: "levels_zero_amount", message: `rung ${i}: amounts must be above zero` };
    }
    const prev = rungs[i - 1];
    if (!prev) continue;
    if (r.sellAmount <= prev.sellAmount) {
      return { ok: false, code: "levels_unsorted", message: `rung ${i}: sellAmount must increase` };
    }
    // out_i / sell_i <= out_{i-1} / sell_{i-1}, cross-multiplied.
    if (r.outputAmount * prev.sellAmount > prev.outputAmount * r.sellAmount) {
      return {
        ok: false,
        code: "levels_rate_improves",
        message: `rung ${i}: the rate must not be better for a larger amount`,
      };
    }
  }
  return { ok: true, rungs };
}

/**
 * What the ladder pays for `sellAmount`: linear between the rungs around it (from zero below the first),
 * rounded down; null above the last rung, which the ladder does not cover, and for nothing sold.
 */
export function outputAt(rungs: readonly Rung[], sellAmount: bigint): bigint | null {
  if (sellAmount <= 0n) return null;
  let prev: Rung = { sellAmount: 0n, outputAmount: 0n };
  for (const r of rungs) {
    if (sellAmount <= r.sellAmount) {
      const span = r.sellAmount - prev.sellAmount;
      return prev.outputAmount + ((sellAmount - prev.sellAmount) * (r.outputAmount - prev.outputAmount)) / span;
    }
    prev = r;
  }
  return null;
}

/**
 * How much worse a firm bid was than the ladder's value for the same amount, in bps of that value
 * (negative when the bid was better), rounded toward zero.
 */
export function slippageBps(ladderOutput: bigint, bidOutput: bigint): number {
  return Number(((ladderOutput - bidOutput) * BPS) / ladderOutput);
}
