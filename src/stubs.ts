import type { Env } from "./env";

/**
 * The Durable Objects the Worker talks to, each reached by name (docs/architecture.md): one corridor
 * object per corridor key, and one keeper and one oracle for the whole relay.
 */
export const KEEPER_NAME = "leader";
export const ORACLE_NAME = "oracle";

export const corridorStub = (env: Env, corridorKey: string) => env.CORRIDOR.get(env.CORRIDOR.idFromName(corridorKey));
export const keeperStub = (env: Env) => env.KEEPER.get(env.KEEPER.idFromName(KEEPER_NAME));
export const oracleStub = (env: Env) => env.ORACLE.get(env.ORACLE.idFromName(ORACLE_NAME));
