import type { AuctionChecks } from "../auction";
import type { ChainAdapter, Corridor } from "../chains";
import { levelDaysStatement, RecordBatch, readSloppyLevels } from "../db";
import { log } from "../log";
import type { CorridorStanding } from "../resolvers";
import { CorridorPrices } from "./corridor-prices";
import { MIN_LEVEL_SAMPLES, SLOPPY_P50_BPS } from "./honesty";

/**
 * A corridor object's prices, wired to the auction's checks (eligibility, inventory, fees and the band
 * guard are the auction's own, `auctionChecksOf`), to the standing it holds (demotions), and to D1 for the
 * slippage counts of the corridor's days: written to its records database, the auctions of 100 ms sharing
 * one D1 call (`RecordBatch`), and read, every corridor's, from `DB`, where the leader's job moves them
 * (docs/capacity.md, "Records by corridor").
 */
export function corridorPricesOn(parts: {
  corridor: Corridor;
  adapter: ChainAdapter;
  checks: AuctionChecks;
  standing: Pick<CorridorStanding, "held">;
  db: D1Database;
  /** The corridor's records database: `db` itself unless the configuration's `records` lists it elsewhere. */
  records: D1Database;
  waitUntil(p: Promise<unknown>): void;
}): CorridorPrices {
  const { corridor, checks } = parts;
  const samples = new RecordBatch(parts.records);
  return new CorridorPrices({
    chainId: corridor.chain.chainId,
    tokens: corridor.tokens,
    sameToken: parts.adapter.sameAddress,
    eligible: (buyToken, now) => checks.eligible(buyToken, now),
    canDeliver: (node, token, amount) => checks.canDeliver(node, token, amount),
    demoted: () => parts.standing.held()?.demoted ?? null,
    charges: (sellToken, buyToken, now) => checks.charges(sellToken, buyToken, now),
    bounds: (sellToken, buyToken, sellAmount, now) => checks.bounds(sellToken, buyToken, sellAmount, now),
    readSloppy: (sinceDay) => readSloppyLevels(parts.db, sinceDay, MIN_LEVEL_SAMPLES, SLOPPY_P50_BPS),
    waitUntil: parts.waitUntil,
    store: (counts) =>
      parts.waitUntil(
        samples
          .write([
            levelDaysStatement(
              parts.records,
              counts.map((c) => ({ ...c, corridor: corridor.key })),
            ),
          ])
          .catch((e: unknown) => log.error("level_samples_failed", { error: String(e) })),
      ),
  });
}
