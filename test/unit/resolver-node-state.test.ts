import { describe, expect, it } from "vitest";
import { NodeStates } from "../../src/clients/resolver/node-state";
import type { InventoryEntry } from "../../src/protocol/node-frames";

const inventory: InventoryEntry[] = [{ chainId: 31337, token: "0xa", balance: "5", allowance: "5" }];

describe("the node's reported state", () => {
  it("quotes by default: no decline, and heartbeats without per-chain states", () => {
    const states = new NodeStates();
    expect(states.declineReason(31337)).toBeNull();
    expect(states.heartbeat(inventory, false)).toEqual({
      type: "heartbeat",
      state: "quoting",
      degraded: null,
      inventory,
    });
  });

  it("declines with the node's state, or its degraded reason, before the chain's", () => {
    const states = new NodeStates("paused");
    states.setChain(31337, "degraded", "rpc_down");
    expect(states.declineReason(31337)).toBe("paused");
    states.set("degraded", "maintenance");
    expect(states.declineReason(31337)).toBe("maintenance");
    states.set("quoting", "ignored while quoting");
    expect(states.declineReason(31337)).toBe("rpc_down");
    expect(states.declineReason(1)).toBeNull();
    expect(states.heartbeat(inventory, false)).toMatchObject({
      state: "quoting",
      degraded: null,
      chains: [{ chainId: 31337, state: "degraded", degraded: "rpc_down" }],
    });
  });

  it("withdraws a chain's state with null", () => {
    const states = new NodeStates();
    states.setChain(31337, "paused");
    states.setChain(31337, null);
    expect(states.declineReason(31337)).toBeNull();
    expect(states.heartbeat(inventory, false)).not.toHaveProperty("chains");
  });

  it("reports a quoting node degraded while its inventory cannot be read, and leaves another state as it is", () => {
    const states = new NodeStates();
    expect(states.heartbeat(inventory, true)).toMatchObject({ state: "degraded", degraded: "inventory_unavailable" });
    expect(states.declineReason(31337)).toBeNull();
    states.set("paused");
    expect(states.heartbeat(inventory, true)).toMatchObject({ state: "paused", degraded: null });
  });
});
