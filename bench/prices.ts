/**
 * `npm run bench:prices`: GET /v1/prices beside GET /v1/config on one stack (bench/README.md, "How to measure").
 * Starts anvil with the local contracts, `wrangler dev` and the two reference resolvers of `npm start`
 * (they stream ladders from their pricing, their inventory read from anvil), then asks the two
 * endpoints in turns, so a slow moment of the shared machine falls on both alike. Prints each p50 and
 * p90 and the ratio of the p50s against its target: an indicative price is answered from the corridor
 * object's memory, so it should cost at most twice the cheapest read there is.
 */

import { DEFAULT_LOCAL_RATE, parseRate, startLocalRateSource } from "../scripts/lib/local-rates";
import {
  anvilPrivateKey,
  LOCAL_ACCOUNTS,
  localHolders,
  localSolanaKeeperSecret,
  offlineRelayConfig,
  prepareLocalChain,
  startAnvil,
  startIntervalMining,
  startLocalResolvers,
  startRelay,
} from "../scripts/lib/local-stack";
import { fmt, machineLoad, percentile, verdict } from "./stats";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
/** The target: /v1/prices p50 at most this many times /v1/config p50. */
const TARGET_RATIO = 2;
const CNGN = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
const USDC = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0";

async function timed(url: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(url);
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return performance.now() - started;
}

async function main() {
  const anvil = await startAnvil();
  const rates = await startLocalRateSource(parseRate(DEFAULT_LOCAL_RATE), 0);
  const stops: (() => Promise<unknown>)[] = [() => anvil.stop(), () => rates.stop()];
  try {
    await prepareLocalChain(anvil.rpcUrl, localHolders());
    await startIntervalMining(anvil.rpcUrl, 1);
    const config = offlineRelayConfig(anvil.rpcUrl, rates.url);
    // The bench is one client asking as fast as it is answered: its price rate is raised so that every
    // request is answered (and counted), not refused 429.
    config.limits = { ...config.limits, pricesPerSecond: 100_000, priceBurst: 100_000 };
    const relay = await startRelay({
      vars: {
        // The Solana chain stays configured (its oracle corridor names it), unused: no resolver serves it.
        RELAY_CONFIG: JSON.stringify(config),
        KEEPER_PRIVATE_KEY: anvilPrivateKey(LOCAL_ACCOUNTS.keeper),
        KEEPER_SOLANA_KEY: localSolanaKeeperSecret(),
      },
    });
    stops.unshift(() => relay.stop());
    const resolvers = await startLocalResolvers(relay.url, {
      rpcUrl: anvil.rpcUrl,
      resolvers: [
        { index: 1, name: "alpha", spreadBps: 0 },
        { index: 2, name: "beta", spreadBps: 15 },
      ],
    });
    stops.unshift(() => Promise.all(resolvers.map((r) => r.stop())));
    const prices = `${relay.url}/v1/prices?chainId=31337&sellToken=${CNGN}&buyToken=${USDC}&sellAmount=1580000000`;
    const configUrl = `${relay.url}/v1/config`;
    // The first ladders arrive once the resolvers' inventory is read and the chain covers it.
    const deadline = Date.now() + 30_000;
    for (;;) {
      if ((await fetch(prices)).status === 200) break;
      if (Date.now() > deadline) throw new Error("no indicative price within 30 s");
      await new Promise((r) => setTimeout(r, 250));
    }
    for (let i = 0; i < 20; i++) await Promise.all([timed(prices), timed(configUrl)]);
    const sample = { prices: [] as number[], config: [] as number[] };
    for (let i = 0; i < REQUESTS; i++) {
      sample.prices.push(await timed(prices));
      sample.config.push(await timed(configUrl));
    }
    const p50 = { prices: percentile(sample.prices, 50), config: percentile(sample.config, 50) };
    console.log(`GET /v1/prices  p50 ${fmt(p50.prices)}  p90 ${fmt(percentile(sample.prices, 90))}  (${REQUESTS})`);
    console.log(`GET /v1/config  p50 ${fmt(p50.config)}  p90 ${fmt(percentile(sample.config, 90))}  (${REQUESTS})`);
    console.log(verdict("prices p50 ÷ config p50", p50.prices / p50.config, TARGET_RATIO, "lower", "×"));
    console.log(machineLoad());
  } finally {
    for (const stop of stops) await stop().catch(() => {});
  }
}

await main();
