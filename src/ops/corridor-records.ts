import { adapterFor, allCorridors, type Corridor } from "../chains";
import type { RelayConfig } from "../config";
import type { Env } from "../env";
import { corridorStub } from "../objects";
import type { CorridorRecord } from "../schemas";
import { type CorridorStatus, corridorState } from "./corridor-state";
import { type Probed, within } from "./deadline";

/**
 * Asks every configured corridor's object for its status, all at once, each for at most `ms`: one call
 * per corridor, so a relay with many corridors pays for each (docs/operations.md, "Health").
 */
export function corridorStatuses(
  env: Env,
  config: RelayConfig,
  ms: number,
): Promise<{ corridor: Corridor; status: Probed<CorridorStatus> }[]> {
  return Promise.all(
    allCorridors(config).map(async (corridor) => ({
      corridor,
      status: await within(ms, () => corridorStub(env, corridor.key).status()),
    })),
  );
}

/** A corridor as `GET /v1/corridors` and the admin API show it; `status` null when its object did not answer. */
export function corridorRecord(corridor: Corridor, status: CorridorStatus | null): CorridorRecord {
  const adapter = adapterFor(corridor.chain);
  return {
    key: corridor.key,
    chainId: corridor.chain.chainId,
    tokens: corridor.tokens.map((address) => ({ address, symbol: adapter.token(address)?.symbol ?? address })),
    ...corridorState(status),
    paused: status?.paused ?? null,
    nodes: status?.nodes ?? null,
  };
}
