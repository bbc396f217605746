/**
 * What `wrangler dev` will run with, read the way wrangler reads it: `.dev.vars` over wrangler.toml
 * `[vars]`; an empty RELAY_CONFIG means the embedded local default.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseEnv } from "node:util";
import { unstable_readConfig } from "wrangler";
import { loadConfig } from "../../src/config/load";
import type { RelayConfig } from "../../src/config/schema";

export const root = resolve(import.meta.dirname, "../..");

export interface ServedConfig {
  config: RelayConfig;
  /** Where it came from, for the start-up message. */
  source: string;
}

/** The relay configuration `wrangler dev` will serve; throws a ConfigError naming every bad field. */
export function servedConfig(dir = root): ServedConfig {
  const vars = (unstable_readConfig({ config: join(dir, "wrangler.toml") }).vars ?? {}) as Record<string, unknown>;
  const devVarsPath = join(dir, ".dev.vars");
  const devVars = existsSync(devVarsPath) ? parseEnv(readFileSync(devVarsPath, "utf8")) : {};
  const [raw, where] =
    devVars.RELAY_CONFIG !== undefined
      ? [devVars.RELAY_CONFIG, ".dev.vars"]
      : [typeof vars.RELAY_CONFIG === "string" ? vars.RELAY_CONFIG : "", "wrangler.toml"];
  const source = raw.trim() ? `RELAY_CONFIG in ${where}` : "the embedded local default (src/config/local.ts)";
  return { config: loadConfig(raw), source };
}

/**
 * The local secrets of `.dev.vars.example` (public, local-only values), for a `wrangler dev` started
 * where no `.dev.vars` exists: passed as `--var`, so nothing is written to disk. Empty when `.dev.vars`
 * exists, since wrangler reads that file itself and it is the developer's to keep.
 */
export function exampleDevVars(dir = root): Record<string, string> {
  if (existsSync(join(dir, ".dev.vars"))) return {};
  const example = join(dir, ".dev.vars.example");
  if (!existsSync(example)) return {};
  return Object.fromEntries(
    Object.entries(parseEnv(readFileSync(example, "utf8"))).filter((e): e is [string, string] => e[1] !== undefined),
  );
}

/** The developer's own `.dev.vars`, parsed; empty when there is none. */
export function ownDevVars(dir = root): Record<string, string> {
  const path = join(dir, ".dev.vars");
  if (!existsSync(path)) return {};
  return Object.fromEntries(
    Object.entries(parseEnv(readFileSync(path, "utf8"))).filter((e): e is [string, string] => e[1] !== undefined),
  );
}
