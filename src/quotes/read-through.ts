import { corridorsOfQuoteId } from "../chains";
import type { RelayConfig } from "../config";
import type { Env } from "../env";
import { isId } from "../ids";
import { corridorStub } from "../stubs";

/**
 * Has the corridor quote `quoteId` is tagged with copy its queued writes to D1 (the quote may have left
 * the auction a moment ago; docs/architecture.md, "Write-behind"). False when the id names no corridor of
 * the configuration.
 */
export async function writeThrough(env: Env, config: RelayConfig, quoteId: string): Promise<boolean> {
  const corridors = corridorsOfQuoteId(config, quoteId);
  await Promise.all(corridors.map((key) => corridorStub(env, key).writeThrough()));
  return corridors.length > 0;
}

/**
 * Reads what D1 holds of quote `quoteId` with `read`; on a miss, has its corridor write through first
 * and runs `read` again. Null for an id that is not a quote's or not found.
 */
export async function readThrough<T>(
  env: Env,
  config: RelayConfig,
  quoteId: string,
  read: (db: D1Database) => Promise<T | null>,
): Promise<T | null> {
  if (!isId("q", quoteId)) return null;
  const found = await read(env.DB);
  if (found !== null) return found;
  return (await writeThrough(env, config, quoteId)) ? read(env.DB) : null;
}
