import type { z } from "zod";
import { localConfig } from "./local";
import { type RelayConfig, relayConfigSchema } from "./schema";

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

/** `a.b.0.c: message; ...`, so an operator sees which field to fix. */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join(".") : "(root)"}: ${i.message}`).join("; ");
}

/** Parses and validates a configuration; throws a ConfigError naming every bad field. */
export function parseConfig(input: unknown): RelayConfig {
  const result = relayConfigSchema.safeParse(input);
  if (!result.success) throw new ConfigError(`invalid relay configuration: ${describeIssues(result.error)}`);
  return result.data;
}

let cached: { raw: string | undefined; config: RelayConfig } | undefined;

/**
 * The configuration in force: the `RELAY_CONFIG` variable (JSON) when set, else the embedded local default.
 * Parsed once per isolate, since the variable only changes with a deploy.
 */
export function loadConfig(raw: string | undefined): RelayConfig {
  if (cached && cached.raw === raw) return cached.config;
  let input: unknown = localConfig;
  if (raw !== undefined && raw.trim() !== "") {
    try {
      input = JSON.parse(raw);
    } catch (e) {
      throw new ConfigError(`invalid relay configuration: RELAY_CONFIG is not JSON (${(e as Error).message})`);
    }
  }
  const config = parseConfig(input);
  cached = { raw, config };
  return config;
}
