import type { HeartbeatFrame, InventoryEntry, NodeState } from "../../protocol/node-frames";

interface StateReport {
  state: NodeState;
  degraded: string | null;
}

const report = (state: NodeState, reason?: string): StateReport => ({
  state,
  degraded: state === "degraded" ? (reason ?? null) : null,
});

/**
 * The state the node reports in its heartbeats, for itself and per chain, and declines rfqs by while it
 * is not `quoting` (docs/reference-resolver.md, "Heartbeats and inventory").
 */
export class NodeStates {
  private node: StateReport;
  private readonly chains = new Map<number, StateReport>();

  constructor(state: NodeState = "quoting") {
    this.node = report(state);
  }

  set(state: NodeState, reason?: string): void {
    this.node = report(state, reason);
  }

  /** One chain's state, reported in heartbeats' `chains`; null withdraws it. */
  setChain(chainId: number, state: NodeState | null, reason?: string): void {
    if (state === null) this.chains.delete(chainId);
    else this.chains.set(chainId, report(state, reason));
  }

  /** Why an rfq on `chainId` is declined for the node's or the chain's state, or null while both quote. */
  declineReason(chainId: number): string | null {
    for (const r of [this.node, this.chains.get(chainId)]) {
      if (r && r.state !== "quoting") return r.degraded ?? r.state;
    }
    return null;
  }

  /** A quoting node whose inventory read failed reports itself degraded: it cannot vouch for the figures. */
  heartbeat(inventory: InventoryEntry[], inventoryFailed: boolean): HeartbeatFrame {
    const { state, degraded } =
      inventoryFailed && this.node.state === "quoting"
        ? { state: "degraded" as const, degraded: "inventory_unavailable" }
        : this.node;
    const chains = [...this.chains].map(([chainId, s]) => ({ chainId, state: s.state, degraded: s.degraded }));
    return { type: "heartbeat", state, degraded, inventory, ...(chains.length ? { chains } : {}) };
  }
}
