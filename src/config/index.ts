/**
 * The configuration (docs/configuration.md): its schema and types, `loadConfig`, its public record.
 * The folder's face: other folders import only what this file names (docs/architecture.md, "Folders").
 */

export { ConfigError, loadConfig } from "./load";
export type { OracleConfig, OracleSourceConfig } from "./oracle";
export { configRecord, primaryEvmChain } from "./record";
export { type DatabaseBindings, type RecordsDatabases, recordsDatabases, recordsDb } from "./records";
export type { ChainConfig, EvmChain, RelayConfig, SolanaChain } from "./schema";
