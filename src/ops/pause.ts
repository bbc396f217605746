import { type Refusal, refuse } from "../errors";
import { NOT_LEADER_RETRY_SECONDS } from "../keeper/contract";
import type { PauseRecord } from "../schemas/ops";

/** Where a corridor or the keeper keeps its pause, in its object's storage, so a restart keeps it. */
export const PAUSE_KEY = "paused";

export const pauseRecord = (reason: string | undefined, now: number): PauseRecord => ({
  at: new Date(now).toISOString(),
  reason: reason ?? null,
});

/**
 * A quote asked of a paused corridor (docs/operations.md, "Pausing"): 503 `not_leader`, the spec's one
 * code for "this relay does not take it now, ask again", with `reason: corridor_paused`.
 */
export const corridorPaused = (pause: PauseRecord): Refusal =>
  refuse(503, "not_leader", `This corridor is paused${pause.reason ? ` (${pause.reason})` : ""}; ask again later.`, {
    reason: "corridor_paused",
    retryAfter: NOT_LEADER_RETRY_SECONDS,
  });
