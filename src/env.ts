import type { CorridorDO } from "../durable-objects/corridor";
import type { OracleDO } from "../durable-objects/oracle";
import type { RelayConfig } from "./config/schema";

/** Bindings, variables and secrets of the Worker (see wrangler.toml and .dev.vars.example). */
export interface Env {
  DB: D1Database;
  CORRIDOR: DurableObjectNamespace<CorridorDO>;
  ORACLE: DurableObjectNamespace<OracleDO>;
  /** The relay configuration as JSON; unset means the embedded local default. */
  RELAY_CONFIG?: string;
  /** Bearer secret of the admin API. */
  ADMIN_TOKEN?: string;
}

export interface AppEnv {
  Bindings: Env;
  Variables: { config: RelayConfig; requestId: string };
}
