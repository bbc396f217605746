import { withD1Latency } from "./db";
import { useLogFormat } from "./log";

/**
 * What every entry point into the relay's code (the Worker's `fetch`, each Durable Object's constructor)
 * does with the env it is given: the log format of its isolate (`LOG_FORMAT`), and the env it then uses
 * (with simulated D1 latency when a benchmark asks for it).
 */
export function entryEnv<E extends { DB: D1Database; SIMULATED_D1_LATENCY_MS?: string; LOG_FORMAT?: string }>(
  env: E,
): E {
  useLogFormat(env.LOG_FORMAT);
  return withD1Latency(env);
}
