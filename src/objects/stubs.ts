import type { Env } from "../env";

/**
 * The Durable Objects, each reached by name (docs/architecture.md): one corridor object per corridor key,
 * one keeper leader and one oracle for the whole relay, and one keeper per chain, which only the leader
 * calls.
 */
export const KEEPER_NAME = "leader";
export const ORACLE_NAME = "oracle";

export const corridorStub = (env: Env, corridorKey: string) => env.CORRIDOR.get(env.CORRIDOR.idFromName(corridorKey));
export const keeperStub = (env: Env) => env.KEEPER.get(env.KEEPER.idFromName(KEEPER_NAME));
export const chainKeeperStub = (env: Env, chainId: number) =>
  env.CHAIN_KEEPER.get(env.CHAIN_KEEPER.idFromName(`chain:${chainId}`));
export const oracleStub = (env: Env) => env.ORACLE.get(env.ORACLE.idFromName(ORACLE_NAME));
