import type { HeartbeatFrame, InventoryEntry } from "../../protocol/node-frames";
import { asError, type Emit } from "./events";
import type { InventorySource } from "./inventory";
import type { NodeStates } from "./node-state";
import type { ChainInfo, CorridorTarget } from "./relay-config";

export interface HeartbeatsOptions {
  corridor: string;
  chain: ChainInfo;
  target: CorridorTarget;
  source: InventorySource;
  states: NodeStates;
  everyMs: number;
  /** Only an authenticated socket heartbeats. */
  authenticated(): boolean;
  send(frame: HeartbeatFrame): boolean;
  emit: Emit;
}

/**
 * One corridor's heartbeats (docs/reference-resolver.md, "Heartbeats and inventory"): at once on
 * `welcome`, then on schedule and on each state change, each with a fresh read of the corridor's two
 * tokens. A failed read keeps the last figures, and the heartbeat says the node cannot vouch for them.
 */
export class Heartbeats {
  /** The figures of the last read that succeeded. */
  inventory: InventoryEntry[] = [];
  /** When the read of `inventory` started (ms), or null before one succeeded: a settlement after it does not show in it. */
  readAt: number | null = null;
  /** False until the first read is in; `queue` settles after it. */
  inventoryRead = false;
  /** Heartbeats are sent in order even when an inventory read is slow. */
  queue: Promise<void> = Promise.resolve();
  private inventoryFailed = false;
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly options: HeartbeatsOptions) {}

  /** The relay welcomed the node: one heartbeat now, then one every `everyMs`. */
  start(): void {
    this.beat();
    this.stop();
    this.timer = setInterval(() => this.beat(), this.options.everyMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  beat(): void {
    if (!this.options.authenticated()) return;
    this.queue = this.queue.then(() => this.send());
  }

  private async send(): Promise<void> {
    const { chain, target, source, states, corridor, emit } = this.options;
    try {
      const startedAt = Date.now();
      this.inventory = await source.read(chain, [target.tokenA, target.tokenB]);
      this.readAt = startedAt;
      this.inventoryRead = true;
      this.inventoryFailed = false;
    } catch (e) {
      this.inventoryFailed = true;
      emit("error", { corridor, error: asError(e) });
    }
    if (!this.options.authenticated()) return;
    this.options.send(states.heartbeat(this.inventory, this.inventoryFailed));
  }
}
