import type { RelayConfig } from "../config/schema";
import { corridorsOfQuoteId } from "../corridors";
import type { Env } from "../env";
import { isId } from "../ids";
import { corridorStub } from "../stubs";

/**
 * Reads what D1 holds of quote `quoteId` with `read`; on a miss, the corridor its id is tagged with
 * copies its queued writes to D1 first (the quote may have left the auction a moment ago), and `read`
 * runs again (docs/architecture.md, "Write-behind"). Null for an id that is not a quote's or not found.
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
  const corridors = corridorsOfQuoteId(config, quoteId);
  if (corridors.length === 0) return null;
  await Promise.all(corridors.map((key) => corridorStub(env, key).writeThrough()));
  return read(env.DB);
}
