import type { AuctionChecks } from "../auction";
import type { ChainAdapter, Corridor } from "../chains";
import { levelSamplesStatement, RecordBatch, readSloppyLevels } from "../db";
import { log } from "../log";
import type { CorridorStanding } from "../resolvers";
import { CorridorPrices } from "./corridor-prices";
import { MIN_LEVEL_SAMPLES, SLOPPY_P50_BPS } from "./honesty";

/**
 * A corridor object's prices, wired to the auction's checks (eligibility, inventory and fees are the
 * auction's own, `auctionChecksOf`), to the standing it holds (demotions), and to D1 for the slippage samples,
 * which the auctions of 100 ms share one D1 call to write (`RecordBatch`).
 */
export function corridorPricesOn(parts: {
  corridor: Corridor;
  adapter: ChainAdapter;
  checks: AuctionChecks;
  standing: Pick<CorridorStanding, "held">;
  db: D1Database;
  waitUntil(p: Promise<unknown>): void;
}): CorridorPrices {
  const { corridor, checks } = parts;
  const samples = new RecordBatch(parts.db);
  return new CorridorPrices({
    chainId: corridor.chain.chainId,
    tokens: corridor.tokens,
    sameToken: parts.adapter.sameAddress,
    eligible: (buyToken, now) => checks.eligible(buyToken, now),
    canDeliver: (node, token, amount) => checks.canDeliver(node, token, amount),
    demoted: () => parts.standing.held()?.demoted ?? null,
    charges: (sellToken, buyToken, now) => checks.charges(sellToken, buyToken, now),
    readSloppy: (since) => readSloppyLevels(parts.db, since, MIN_LEVEL_SAMPLES, SLOPPY_P50_BPS),
    waitUntil: parts.waitUntil,
    store: (rows) =>
      parts.waitUntil(
        samples
          .write([levelSamplesStatement(parts.db, rows)])
          .catch((e: unknown) => log.error("level_samples_failed", { error: String(e) })),
      ),
  });
}
