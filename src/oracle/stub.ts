import type { Env } from "../env";

/** The oracle is one object for the whole relay: one poller, one set of bands. */
export const ORACLE_NAME = "oracle";

export const oracleStub = (env: Env) => env.ORACLE.get(env.ORACLE.idFromName(ORACLE_NAME));
