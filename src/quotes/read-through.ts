import { archivedExecution, archivedQuote } from "../archive";
import { corridorsOfQuoteId } from "../chains";
import { type RelayConfig, recordsDb } from "../config";
import type { Env } from "../env";
import { isId } from "../ids";
import { BoundedCache } from "../limits";
import { corridorStub, keeperStub } from "../objects";
import type { Execution, Quote } from "../schemas";
import { QUOTE_MOVES } from "../states";
import { executionAsOfNow, quoteAsOfNow, quoteClaimAsOfNow } from "./as-of-now";

/**
 * What a read calls before it reaches an object: counts the read against its client, and throws its
 * refusal past the client's limit (docs/security.md, "Reads that reach objects").
 */
export type ObjectReadGate = () => Promise<void>;

/** How long an id its objects did not know is answered not found without asking them again. */
export const UNKNOWN_ID_MS = 5_000;

/**
 * Ids their objects were asked about and did not know, per isolate: asked again within a few seconds, the
 * answer is still no (an id is known to a client only once its object holds it), so a repeated unknown id
 * reaches no object. Bounded; the oldest are forgotten first.
 */
const unknownIds = new BoundedCache<true>(5_000, UNKNOWN_ID_MS);

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
 * Reads what D1 holds of quote `quoteId` with `read`, in its corridor's records' database (docs/capacity.md,
 * "Records by corridor"); on a miss, has its corridor write through first and runs `read` again. Null for
 * an id that is not a quote's or not found.
 */
export async function readThrough<T>(
  env: Env,
  config: RelayConfig,
  quoteId: string,
  read: (db: D1Database) => Promise<T | null>,
  gate: ObjectReadGate,
): Promise<T | null> {
  if (!isId("q", quoteId)) return null;
  const db = recordsDb(env, config, quoteId);
  const found = await read(db);
  if (found !== null) return found;
  return throughObject(quoteId, gate, async () => ((await writeThrough(env, config, quoteId)) ? read(db) : null));
}

/** Asks an object about `id` through `gate`, unless it did not know it a moment ago; remembers a miss. */
async function throughObject<T>(id: string, gate: ObjectReadGate, ask: () => Promise<T | null>): Promise<T | null> {
  const now = Date.now();
  if (unknownIds.get(id, now)) return null;
  await gate();
  const found = await ask();
  if (found === null) unknownIds.set(id, true, Date.now());
  return found;
}

/** An archived quote is one no keeper holds a claim on. */
const unclaimed = (quote: Quote | null) => quote && { quote, claimed: false };

/** The statuses a submission's record moves a quote from (src/states/quote-states.ts). */
const SUBMITTED_FROM: readonly string[] = QUOTE_MOVES.submitted.from;

/**
 * `GET /v1/quotes/{id}`: the quote as of now, its corridor written through on a miss. A quote the keeper
 * holds a claim on, in a status its submission may still move it from (open, or expired meanwhile), may
 * have been answered 202 a moment ago, its record written just after that answer (docs/settlement.md,
 * "The fast path"): the keeper writes it first, and D1 is read again. One D1 no longer holds is read from
 * the archive (docs/api.md, "Archived records"), before its corridor is asked.
 */
export async function quoteThrough(
  env: Env,
  config: RelayConfig,
  quoteId: string,
  gate: ObjectReadGate,
): Promise<Quote | null> {
  const read = await readThrough(
    env,
    config,
    quoteId,
    async (db) =>
      (await quoteClaimAsOfNow(db, quoteId)) ?? unclaimed(await archivedQuote(db, env.ARCHIVE, quoteId, gate)),
    gate,
  );
  if (!read?.claimed || !SUBMITTED_FROM.includes(read.quote.status)) return read?.quote ?? null;
  await gate();
  return (await keeperWriteThrough(env, quoteId)) ? quoteAsOfNow(recordsDb(env, config, quoteId), quoteId) : read.quote;
}

/**
 * `GET /v1/executions/{id}`: the execution as of now. One D1 does not have may have been answered 202 a
 * moment ago: the keeper writes it first, and D1 is read again. One D1 no longer holds is read from the
 * archive.
 */
export async function executionThrough(
  env: Env,
  config: RelayConfig,
  executionId: string,
  gate: ObjectReadGate,
): Promise<Execution | null> {
  if (!isId("x", executionId)) return null;
  // An execution's id carries its quote's tag: both are in the corridor's records' database.
  const db = recordsDb(env, config, executionId);
  const found =
    (await executionAsOfNow(db, executionId)) ?? (await archivedExecution(db, env.ARCHIVE, executionId, gate));
  if (found) return found;
  return throughObject(executionId, gate, async () =>
    (await keeperWriteThrough(env, executionId)) ? executionAsOfNow(db, executionId) : null,
  );
}

/**
 * Whether the keeper wrote what it answered about `id` and had not written yet. A keeper that cannot be
 * asked (restarting) has nothing of it in memory: D1 is then all there is.
 */
async function keeperWriteThrough(env: Env, id: string): Promise<boolean> {
  return keeperStub(env)
    .writeThrough(id)
    .catch(() => false);
}
