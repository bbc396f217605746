import { readHead } from "../chains/head";
import type { RelayConfig } from "../config/schema";
import { countOpenLimitOrders } from "../db/limit-orders";
import type { Env } from "../env";
import { keeperStub, oracleStub } from "../stubs";
import { corridorStatuses } from "./corridor-records";
import { within } from "./deadline";
import { HEALTH_PART_TIMEOUT_MS, type HealthProbes } from "./health";

/**
 * Asks every part of the relay at once, each bounded by HEALTH_PART_TIMEOUT_MS (docs/operations.md,
 * "Health"): the keeper object, each chain's RPC (from the Worker, as the keeper would reach it), the
 * oracle object (its stored bands; no source is polled), every corridor object, and D1.
 */
export async function probeHealth(env: Env, config: RelayConfig): Promise<HealthProbes> {
  const ms = HEALTH_PART_TIMEOUT_MS;
  const [keeper, chains, oracle, corridors, openLimitOrders] = await Promise.all([
    within(ms, () => keeperStub(env).status()),
    Promise.all(
      config.chains.map(async (chain) => ({
        chainId: chain.chainId,
        name: chain.name,
        head: await within(ms, (signal) => readHead(chain, signal)),
      })),
    ),
    within(ms, () => oracleStub(env).health()),
    corridorStatuses(env, config, ms),
    within(ms, () => countOpenLimitOrders(env.DB)),
  ]);
  return {
    keeper,
    chains,
    oracle,
    corridors: corridors.map(({ corridor, status }) => ({ key: corridor.key, status })),
    openLimitOrders,
  };
}
