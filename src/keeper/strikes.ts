import { heal, strike } from "../resolvers/strikes";
import type { KeeperPort } from "./port";

export async function strikeWinner(
  port: KeeperPort,
  fill: { corridorKey: string | null; resolver: string | null; executionId: string },
  why: string,
): Promise<void> {
  const { resolver } = fill;
  if (!resolver) return;
  await strike(port.db, { resolver, event: fill.executionId, why, now: port.now() }, (demotion) =>
    port.demoted(fill.corridorKey, resolver, demotion),
  );
}

export async function healWinner(port: KeeperPort, fill: { resolver: string | null; executionId: string }) {
  if (fill.resolver) await heal(port.db, { resolver: fill.resolver, event: fill.executionId, now: port.now() });
}
