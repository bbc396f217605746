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
 * and the rate (`outputAmount / sellAmount`) never better for a larger amount by more than one base unit
 * of rounding: a rung's rate stays under what the rung before it would pay with one base unit more, so a
 * flat rate computed in integers (each rung rounded, down or to nearest) is taken. The frame's schema has
 * already checked their shape (base-unit strings of at most 78 digits, at most 20 rungs).
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
    // out_i / sell_i < (out_{i-1} + 1) / sell_{i-1}, cross-multiplied.
    if (r.outputAmount * prev.sellAmount >= (prev.outputAmount + 1n) * r.sellAmount) {
      return {
        ok: false,
        code: "levels_rate_improves",
        message: `rung ${i}: the rate must not be better for a larger amount by more than one base unit of rounding`,
      };
    }
  }
  return { ok: true, rungs };
}

/**
 * What the ladder pays for `sellAmount`: linear between the rungs around it (from zero below the first),
 * rounded down; null above the last rung, which the ladder does not cover, for nothing sold, and where
 * the value rounds to nothing (below the first rung, for an amount too small for its rate): a ladder
 * covers only the amounts it pays something for, so no price and no honesty sample is ever of a zero.
 */
export function outputAt(rungs: readonly Rung[], sellAmount: bigint): bigint | null {
  if (sellAmount <= 0n) return null;
  let prev: Rung = { sellAmount: 0n, outputAmount: 0n };
  for (const r of rungs) {
    if (sellAmount <= r.sellAmount) {
      const span = r.sellAmount - prev.sellAmount;
      const out = prev.outputAmount + ((sellAmount - prev.sellAmount) * (r.outputAmount - prev.outputAmount)) / span;
      return out > 0n ? out : null;
    }
    prev = r;
  }
  return null;
}

/**
 * How much worse a firm bid was than the ladder's value for the same amount, in bps of that value
 * (negative when the bid was better), rounded toward zero; a bid of nothing is WORST_SLIPPAGE_BPS. Null
 * for a value of nothing, which no ladder covers (`outputAt`): it measures nothing, and never throws.
 */
export function slippageBps(ladderOutput: bigint, bidOutput: bigint): number | null {
  if (ladderOutput <= 0n) return null;
  return Number(((ladderOutput - bidOutput) * BPS) / ladderOutput);
}

/** The slippage of a node that delivered nothing of what its ladder covered: declined, never replied, or bid out of band. */
export const WORST_SLIPPAGE_BPS = 10_000;

/** The outputs a sale of `sellAmount` may be quoted within by the band guard, or null when no band steers it. */
export type BoundsAt = (sellAmount: bigint) => { min: bigint; max: bigint } | null;

/**
 * Whether every rung pays within the band guard at its amount, as a bid for that amount must to win
 * (docs/api.md, "Ranking and steering"). Between two rungs, and from zero below the first, the rate lies
 * between theirs, so the rungs decide for the whole ladder.
 */
export function withinBand(rungs: readonly Rung[], boundsAt: BoundsAt): boolean {
  return rungs.every((r) => {
    const bounds = boundsAt(r.sellAmount);
    return !bounds || (r.outputAmount >= bounds.min && r.outputAmount <= bounds.max);
  });
}
