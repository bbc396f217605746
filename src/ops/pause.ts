import { type Refusal, refuse } from "../errors";
import { NOT_LEADER_RETRY_SECONDS } from "../objects";
import type { Pause } from "../schemas";
import { KeptValue } from "./kept-value";

/** Where a corridor or the keeper keeps its pause, in its object's storage, so a restart keeps it. */
const PAUSE_KEY = "paused";

/** An object's pause (docs/operations.md, "Pausing"), kept in its storage and read from memory. */
export class PauseSwitch {
  private readonly kept: KeptValue<Pause>;

  constructor(kv: SyncKvStorage) {
    this.kept = new KeptValue(kv, PAUSE_KEY);
  }

  /** The pause in force, or null. */
  current(): Pause | null {
    return this.kept.get();
  }

  /** Pauses, keeping the first pause's time and reason when already paused. */
  pause(reason: string | undefined, now: number): void {
    if (!this.current()) this.kept.set({ at: new Date(now).toISOString(), reason: reason ?? null });
  }

  resume(): void {
    this.kept.clear();
  }
}

/**
 * A quote asked of a paused corridor (docs/operations.md, "Pausing"): 503 `not_leader`, the spec's one
 * code for "this relay does not take it now, ask again", with `reason: corridor_paused`.
 */
export const corridorPaused = (pause: Pause): Refusal =>
  refuse(503, "not_leader", `This corridor is paused${pause.reason ? ` (${pause.reason})` : ""}; ask again later.`, {
    reason: "corridor_paused",
    retryAfter: NOT_LEADER_RETRY_SECONDS,
  });
