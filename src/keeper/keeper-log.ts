import { log as relayLog } from "../log";
import { blameOf } from "../states";

const line =
  (level: "info" | "warn" | "error") =>
  (event: string, detail: Record<string, unknown>): void =>
    relayLog[level](event, { component: "keeper", ...detail });

/**
 * The keeper's log lines, at the level of what each says (docs/operations.md, "Logs"): `info` for its
 * routine work, `warn` for what the chain did that the keeper follows, `error` for what failed; inside a
 * submission they carry its request id.
 */
export const keeperLog = { info: line("info"), warn: line("warn"), error: line("error") };

/**
 * A fill failed for the relay's own reason (docs/reliability.md, "Blame"): the operator hears of each,
 * whether the simulation found it (a requote) or the indexer after broadcast (with its `txHash`).
 */
export function logIfRelayFault(fault: { quoteId: string; corridor: string | null; reason: string; txHash?: string }) {
  if (blameOf(fault.reason) === "relay") keeperLog.error("relay_fault", fault);
}
