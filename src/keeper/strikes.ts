import { applyCleanFill, applyStrike, type Demotion } from "../db/strikes";
import { type KeeperPort, log } from "./port";

/**
 * The winner's standing follows its fills (docs/reliability.md, "Strikes and demotion"): a fill that
 * failed for a reason that is not the taker's is a strike, heard by the resolver at once; a settled fill
 * heals. `event` is the execution, so a step written again after a restart is not counted twice. A
 * failure here is logged and never fails the settlement step that caused it.
 */
export async function strikeWinner(
  port: KeeperPort,
  fill: { corridorKey: string | null; resolver: string | null; executionId: string },
  why: string,
): Promise<void> {
  if (!fill.resolver) return;
  let demotion: Demotion | null;
  try {
    demotion = await applyStrike(port.db, fill.resolver, fill.executionId, why, port.now());
  } catch (e) {
    log("strike_failed", { resolver: fill.resolver, error: String(e) });
    return;
  }
  if (demotion) {
    log("strike", { resolver: fill.resolver, executionId: fill.executionId, ...demotion });
    port.demoted(fill.corridorKey, fill.resolver, demotion);
  }
}

export async function healWinner(
  port: KeeperPort,
  fill: { resolver: string | null; executionId: string },
): Promise<void> {
  if (!fill.resolver) return;
  await applyCleanFill(port.db, fill.resolver, fill.executionId, port.now()).catch((e: unknown) =>
    log("clean_fill_failed", { resolver: fill.resolver, error: String(e) }),
  );
}
