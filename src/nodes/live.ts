import { allCorridors } from "../chains";
import type { RelayConfig } from "../config";
import type { Env } from "../env";
import { corridorStub } from "../objects";
import type { Node } from "../schemas";
import { mergeNodes } from "./nodes";

/** The relay's in-memory view of every connected node, merged across the corridors it serves. */
export async function liveNodes(env: Env, config: RelayConfig, now = Date.now()): Promise<Node[]> {
  const perCorridor = await Promise.all(allCorridors(config).map((c) => corridorStub(env, c.key).nodes()));
  return mergeNodes(perCorridor.flat(), now);
}
