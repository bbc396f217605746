import { blameOf } from "../states";

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
 * itself degraded (docs/reliability.md, "Blame"); none for the taker's or the resolver's.
 */
export const relayFault = (reason: string): Pick<FillNotice, "fault"> =>
  blameOf(reason) === "relay" ? { fault: reason } : {};
