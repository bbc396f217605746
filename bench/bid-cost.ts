/**
 * `npm run bench:bid`: what one EVM bid costs the corridor (bench/README.md, "What a quote and a submission
 * cost now"), in Node and in workerd, the relay's runtime (bench/bid-checks.ts, run in a Worker of its own
 * under wrangler's `unstable_dev`): `BENCH_BIDS` bids, three rounds.
 */
import { join } from "node:path";
import { unstable_dev } from "wrangler";
import { AUCTION_BIDS, type BidCosts, bidCosts } from "./bid-checks";

const BIDS = Number(process.env.BENCH_BIDS ?? 2_000);
const ROUNDS = 3;
const root = join(import.meta.dirname, "..");

const line = (where: string, round: number, c: BidCosts) =>
  `${where}, round ${round}, ${c.bids} bids: frame read ${c.frameRead.toFixed(1)} µs, signature check alone ` +
  `${c.checkAlone.toFixed(1)} µs, in an auction of ${AUCTION_BIDS} ${c.checkInAuction.toFixed(1)} µs a bid`;

async function main() {
  for (let round = 1; round <= ROUNDS; round++) console.log(line("Node", round, await bidCosts(BIDS)));
  const worker = await unstable_dev(join(root, "bench/bid-worker.ts"), {
    config: join(root, "bench/bid-worker.toml"),
    experimental: { disableExperimentalWarning: true },
    logLevel: "error",
  });
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      const costs = (await (await worker.fetch(`/?bids=${BIDS}`)).json()) as BidCosts;
      console.log(line("workerd", round, costs));
    }
  } finally {
    await worker.stop();
  }
}

await main();
