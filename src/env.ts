import type { ChainKeeperDO } from "../durable-objects/chain-keeper";
import type { CorridorDO } from "../durable-objects/corridor";
import type { KeeperDO } from "../durable-objects/keeper";
import type { OracleDO } from "../durable-objects/oracle";
import type { RelayConfig } from "./config";

/** Bindings, variables and secrets of the Worker (see wrangler.toml and .dev.vars.example). */
export interface Env {
  DB: D1Database;
  /**
   * A second D1 database (wrangler.toml), holding the records of the corridors the configuration's `records`
   * places there (docs/capacity.md, "Records by corridor"); a deployment may bind more, named in `records`.
   */
  RECORDS_2?: D1Database;
  /** Ended records older than D1 keeps them (docs/operations.md, "Archive"). */
  ARCHIVE: R2Bucket;
  CORRIDOR: DurableObjectNamespace<CorridorDO>;
  ORACLE: DurableObjectNamespace<OracleDO>;
  KEEPER: DurableObjectNamespace<KeeperDO>;
  CHAIN_KEEPER: DurableObjectNamespace<ChainKeeperDO>;
  /** The relay configuration as JSON; unset means the embedded local default. */
  RELAY_CONFIG?: string;
  /** `line`: one short line per log line, as `npm start` runs the relay; unset: JSON objects (src/log.ts). */
  LOG_FORMAT?: string;
  /** Bearer secret of the admin API. */
  ADMIN_TOKEN?: string;
  /** The keeper wallet's private key (hex); unset, `POST /v1/executions` answers 503 `not_leader`. */
  KEEPER_PRIVATE_KEY?: string;
  /**
   * The Solana keeper's secret key (base58 of the 64-byte secret key, or a JSON array of its bytes); it
   * pays the fees of Solana swaps. Unset, Solana submissions answer 503 `not_leader`.
   */
  KEEPER_SOLANA_KEY?: string;
  /** Benchmarks only: every D1 call waits this many ms first (src/db/simulated-latency.ts). */
  SIMULATED_D1_LATENCY_MS?: string;
}

export interface AppEnv {
  Bindings: Env;
  /** `logFields`: what a route adds to its request's one log line (docs/operations.md, "Logs"). */
  Variables: { config: RelayConfig; requestId: string; logFields?: Record<string, unknown> };
}
