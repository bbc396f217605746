import type { Refusal } from "../errors";
import type { FillNotice } from "../keeper";
import { log } from "../log";
import type { CorridorStatus } from "./corridor-state";
import { corridorPaused, PauseSwitch } from "./pause";
import { RelayFaults } from "./relay-fault";

/**
 * What an operator and the relay's own faults say of one corridor (docs/operations.md, "Pausing" and
 * "Health"), kept in its object's storage: a pause refuses new quotes; a fill failed for the relay's own
 * reason shows the corridor degraded until a fill settles again or an operator resumes it.
 */
export class CorridorControls {
  private readonly pauses: PauseSwitch;
  private readonly faults: RelayFaults;

  constructor(
    kv: SyncKvStorage,
    private readonly corridorKey: string,
  ) {
    this.pauses = new PauseSwitch(kv);
    this.faults = new RelayFaults(kv);
  }

  /** The answer to a quote asked now: 503 `not_leader` while paused, else null. */
  refusal(): Refusal | null {
    const paused = this.pauses.current();
    return paused ? corridorPaused(paused) : null;
  }

  pause(reason: string | undefined, now: number): void {
    this.pauses.pause(reason, now);
    log.warn("corridor_paused", { corridor: this.corridorKey, reason: reason ?? null });
  }

  /** Lifts the pause, and the last relay fault with it: the operator has looked. */
  resume(): void {
    this.pauses.resume();
    this.faults.clear();
    log.warn("corridor_resumed", { corridor: this.corridorKey });
  }

  /** A fill of the corridor moved (the keeper's notice). */
  afterFill(quoteId: string, fill: Pick<FillNotice, "status" | "fault">, now: number): void {
    this.faults.afterFill(quoteId, fill, now);
  }

  status(nodes: number, outbox: CorridorStatus["outbox"]): CorridorStatus {
    return { paused: this.pauses.current(), nodes, outbox, fault: this.faults.current() };
  }
}
