import { blameOf } from "../states";
import { SPENT_BY_RELAY } from "./spent-by-relay";

/** How a winning resolver's fill is going, for its `execution` frame on the corridor it quoted on. */
export interface FillNotice {
  corridorKey: string;
  resolver: string;
  status: "submitted" | "settled" | "failed";
  txHash: string | null;
  /** A failure for the relay's own reason: that reason, so the corridor shows itself degraded. */
  fault?: string;
}

/**
 * The `fault` of a failed fill's notice: its reason when that blames the relay, so the corridor shows
 * itself degraded (docs/reliability.md, "Blame"); none for the taker's or the resolver's, and none for a
 * winner the relay's own fills left short: two takers' quotes won on one balance are a race the corridor
 * expects, not a sign of its health, and a client with two takers could otherwise mark it degraded at will.
 */
export const relayFault = (reason: string): Pick<FillNotice, "fault"> =>
  blameOf(reason) === "relay" && reason !== SPENT_BY_RELAY ? { fault: reason } : {};
