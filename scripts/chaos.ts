/**
 * `npm run chaos -- --crashes 3 --minutes 2`: takers swap back to back on a local stack of their own while
 * its relay is killed with SIGKILL at random moments and started again on the same state, then every
 * answer is checked against the relay and the chains; prints the counts and exits 1 when one is not zero
 * (docs/operations.md, "Deploys and crashes"). The stack is on free ports and its state is removed at
 * the end; `--verbose` prints the relay's log lines.
 */
import { writeFile } from "node:fs/promises";
import { chaosEvmTakers, chaosLimitTaker, chaosSolanaTakers } from "./lib/chaos/accounts";
import { chaosMarkets } from "./lib/chaos/markets";
import {
  CHAOS_USAGE,
  ChaosUsageError,
  crashMoments,
  crashSchedule,
  parseChaosArgs,
  seededRandom,
} from "./lib/chaos/options";
import { chaosReport } from "./lib/chaos/report";
import { runChaos } from "./lib/chaos/run";
import { startChaosStack } from "./lib/chaos/stack";
import { chaosFailed } from "./lib/chaos/verdict";
import { marketOutput } from "./lib/limit-demo";
import { DEFAULT_LOCAL_RATE } from "./lib/local-rates";

/** After the takers stop: time for the last fills to be mined and indexed (a block a second). */
const CATCH_UP_MS = 90_000;
/** The limit order: 15,800 cNGN for what they are worth at the local rate, so the market fills it. */
const LIMIT_SELL_CNGN = 15_800_000_000n;

const say = (line = "") => console.log(line);

async function main(): Promise<number> {
  const options = parseChaosArgs(process.argv.slice(2));
  const random = seededRandom(options.seed);
  const durationMs = Math.round(options.minutes * 60_000);
  const moments = crashMoments(options.crashes, durationMs, random);
  const evmTakers = chaosEvmTakers(options.takers);
  const limitTaker = options.limitOrder ? chaosLimitTaker() : null;
  say(
    `chaos: ${options.takers} EVM and ${options.solanaTakers} Solana takers for ${options.minutes} min, ` +
      `${options.limitOrder ? "a limit order, " : ""}${options.crashes} crashes at ` +
      `${moments.map((m) => `${Math.round(m / 1000)} s`).join(", ") || "no time"} (seed ${options.seed})`,
  );
  say("starting anvil, the Solana chain, the rate source, wrangler dev and two resolvers …");
  const stack = await startChaosStack({
    wallets: options.wallets,
    holders: [...evmTakers.map((a) => a.address), ...(limitTaker ? [limitTaker.address] : [])],
    ...(options.verbose ? { onRelayLine: (line: string) => line.trim() && say(`[relay] ${line}`) } : {}),
  });
  try {
    const markets = chaosMarkets(stack.record, stack.client, options.solanaTakers > 0 ? stack.solanaRpcUrl : null);
    say(`relay ${stack.relay.url}: the takers start`);
    const result = await runChaos({
      relay: stack.relay,
      limits: stack.record.limits,
      chains: markets.chains,
      evm: { takers: evmTakers.map((account) => ({ account, client: stack.client })), pair: markets.evm },
      solana: markets.solana ? { takers: chaosSolanaTakers(options.solanaTakers), pair: markets.solana } : null,
      limitOrder: limitTaker
        ? {
            account: limitTaker,
            client: stack.client,
            terms: {
              chainId: markets.evm.chainId,
              sellToken: markets.evm.sellToken,
              buyToken: markets.evm.buyToken,
              sellAmount: LIMIT_SELL_CNGN.toString(),
              limitAmount: marketOutput(LIMIT_SELL_CNGN, Number(DEFAULT_LOCAL_RATE), 6, 6).toString(),
            },
          }
        : null,
      durationMs,
      crashes: crashSchedule(moments),
      broadcasts: stack.broadcasts,
      catchUpMs: CATCH_UP_MS,
      random,
      onCrash: (c) =>
        say(
          `crash at ${Math.round(c.at / 1000)} s, aimed at a ${c.aim}${c.struck ? "" : " (none came)"}: ` +
            `SIGKILL, back in ${(c.downMs / 1000).toFixed(1)} s`,
        ),
      onProgress: say,
    });
    if (options.out) {
      const json = JSON.stringify(
        { options, ...result },
        (_, v) => (v instanceof Map ? Object.fromEntries(v) : typeof v === "bigint" ? String(v) : v),
        2,
      );
      await writeFile(options.out, json);
    }
    say();
    for (const line of chaosReport(result.verdict, result.seconds)) say(line);
    return chaosFailed(result.verdict.counts) ? 1 : 0;
  } finally {
    await stack.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    if (e instanceof ChaosUsageError) {
      console.error(`npm run chaos: ${e.message}`);
      process.exit(2);
    }
    console.error(e);
    console.error(`\n${CHAOS_USAGE}`);
    process.exit(1);
  },
);
