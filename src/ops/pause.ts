import { type Refusal, refuse } from "../errors";
import { NOT_LEADER_RETRY_SECONDS } from "../http";
import type { Pause } from "../schemas";

/** Where a corridor or the keeper keeps its pause, in its object's storage, so a restart keeps it. */
const PAUSE_KEY = "paused";

/** An object's pause (docs/operations.md, "Pausing"), kept in its storage. */
export class PauseSwitch {
  constructor(private readonly kv: SyncKvStorage) {}

  /** The pause in force, or null. */
  current(): Pause | null {
    return this.kv.get<Pause>(PAUSE_KEY) ?? null;
  }

  /** Pauses, keeping the first pause's time and reason when already paused. */
  pause(reason: string | undefined, now: number): void {
    if (!this.current()) this.kv.put(PAUSE_KEY, { at: new Date(now).toISOString(), reason: reason ?? null });
  }

  resume(): void {
    this.kv.delete(PAUSE_KEY);
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
