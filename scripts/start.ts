/**
 * `npm start`: the whole local stack, with no cloud account. Checks the relay configuration, starts
 * anvil on 127.0.0.1:8545 (or reuses one already there that runs the local contracts), deploys and
 * funds, starts the local Solana chain on 127.0.0.1:8899 (scripts/lib/solana-harness/), starts
 * `wrangler dev` on 127.0.0.1:8787 with local D1 migrated and both keepers' keys, connects two reference
 * resolvers to the EVM and Solana corridors, serves a local rate source on 127.0.0.1:8790 (so the NGN/USD
 * band and the ETH and SOL prices exist offline; `--rate`, `--eth-usd` and `--sol-usd` set them), and
 * prints where everything is. Ctrl-C, SIGTERM or SIGHUP (to it or its process group), or the end of the
 * npm process that runs it, stops it all within a few seconds (docs/local-stack.md, "Stopping").
 * `--keep` resumes the anvil chain and the relay state of the last run instead of starting afresh (the
 * Solana chain always starts from its genesis). See docs/local-stack.md.
 */
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { ResolverClient } from "../src/clients/resolver/client";
import { ConfigError } from "../src/config/load";
import { LOCAL_RATE_SOURCE } from "../src/config/local";
import type { EvmChain, RelayConfig, SolanaChain } from "../src/config/schema";
import { root, servedConfig } from "./lib/dev-config";
import { expectedDeployment } from "./lib/evm-deploy";
import { watchLaunchers } from "./lib/launcher";
import { describeListeners, listenersOn } from "./lib/listeners";
import {
  DEFAULT_LOCAL_RATE,
  DEFAULT_NATIVE_RATES,
  type LocalRateSource,
  type NativeRates,
  parseNativeRate,
  parseRate,
  startLocalRateSource,
} from "./lib/local-rates";
import {
  type AnvilProcess,
  ChainNotReadyError,
  type LocalResolver,
  localHolders,
  minesOnlyOnTransactions,
  prepareLocalChain,
  type RelayProcess,
  rpcChainId,
  startAnvil,
  startIntervalMining,
  startLocalResolvers,
  startRelay,
} from "./lib/local-stack";
import { isListening, stopAllGroups } from "./lib/processes";
import { startReaper } from "./lib/reaper";
import { relayVars } from "./lib/relay-vars";
import { DEFAULT_SOLANA_PORT, type SolanaHarness, startSolanaHarness } from "./lib/solana-harness/server";
import { unreachableSources } from "./lib/source-reach";
import { logResolver, printSummary } from "./lib/start-summary";

const RELAY_PORT = 8787;
const RATE_SOURCE_PORT = Number(new URL(LOCAL_RATE_SOURCE.url).port);
/**
 * A stop's budget, within the 10 s a process manager gives before its SIGKILL: the resolvers' sockets
 * close for up to 1.5 s, then every process group gets SIGTERM and, after 4 s, SIGKILL.
 */
const RESOLVERS_STOP_MS = 1_500;
const GROUP_GRACE_MS = 4_000;
/** Relay state (local D1, Durable Objects) of the stack; it lives as long as the chain it describes. */
const STATE_DIR = join(root, ".wrangler/local-stack");
const relativeState = STATE_DIR.replace(`${root}/`, "");
/** The chain, saved every second and at stop, so `npm start -- --keep` resumes it with the relay state. */
const ANVIL_STATE = join(STATE_DIR, "anvil.json");
const RESOLVERS: LocalResolver[] = [
  { index: 1, name: "alpha", spreadBps: 0 },
  { index: 2, name: "beta", spreadBps: 15 },
];

class StartError extends Error {}

const say = (line = "") => console.log(line);

/** The chains the stack runs: the local EVM chain, and the Solana chain when it is the local one. */
function localChains(): { config: RelayConfig; evm: EvmChain; solana: SolanaChain | null } {
  const { config, source } = servedConfig();
  const chain = config.chains.find((c): c is EvmChain => c.kind === "evm");
  say(`relay configuration ok: ${source}; chains ${config.chains.map((c) => `${c.name} (${c.chainId})`).join(", ")}`);
  if (chain?.chainId !== 31337) {
    throw new StartError(
      "npm start runs the local anvil chain 31337, and the configuration's first EVM chain is not it",
    );
  }
  const url = new URL(chain.rpcUrl);
  if (url.protocol !== "http:" || !["127.0.0.1", "localhost"].includes(url.hostname)) {
    throw new StartError(`the configuration's chain 31337 is at ${chain.rpcUrl}; npm start runs it on loopback`);
  }
  const expected = expectedDeployment();
  if (chain.executor.toLowerCase() !== expected.executor.toLowerCase()) {
    throw new StartError(`the configuration's executor ${chain.executor} is not the local one, ${expected.executor}`);
  }
  const solana = config.chains.find((c): c is SolanaChain => c.kind === "solana") ?? null;
  const localSolana = solana?.chainId === 103 && isLoopback(solana.rpcUrl, DEFAULT_SOLANA_PORT) ? solana : null;
  if (solana && !localSolana) {
    say(`the configuration's Solana chain ${solana.chainId} is not the local one: the resolvers serve EVM only`);
  }
  return { config, evm: chain, solana: localSolana };
}

function isLoopback(rpcUrl: string, port: number): boolean {
  const url = new URL(rpcUrl);
  return url.protocol === "http:" && ["127.0.0.1", "localhost"].includes(url.hostname) && Number(url.port) === port;
}

/** wrangler's own line for each request, which the relay's `request` line (with its request id) stands for. */
const WRANGLER_REQUEST_LINE = /^\[wrangler:info\] [A-Z]+ \S+ \d{3} /;

async function main(): Promise<void> {
  let keep: boolean;
  let verbose: boolean;
  let rate: number;
  let natives: NativeRates;
  try {
    const { values } = parseArgs({
      options: {
        keep: { type: "boolean", default: false },
        verbose: { type: "boolean", default: false },
        rate: { type: "string", default: DEFAULT_LOCAL_RATE },
        "eth-usd": { type: "string", default: DEFAULT_NATIVE_RATES.ETH },
        "sol-usd": { type: "string", default: DEFAULT_NATIVE_RATES.SOL },
      },
    });
    keep = values.keep;
    verbose = values.verbose;
    rate = parseRate(values.rate);
    natives = { ETH: parseNativeRate("ETH", values["eth-usd"]), SOL: parseNativeRate("SOL", values["sol-usd"]) };
  } catch (e) {
    throw new StartError(
      `${(e as Error).message}; the options are --keep, --verbose, --rate <NGN per USD>, --eth-usd <USD per ETH> and --sol-usd <USD per SOL>`,
    );
  }
  const { config, evm: chain, solana: solanaChain } = localChains();
  const rpcUrl = chain.rpcUrl.replace("localhost", "127.0.0.1").replace(/\/+$/, "");
  const anvilPort = Number(new URL(rpcUrl).port || 80);
  for (const port of [RELAY_PORT, RATE_SOURCE_PORT]) {
    if (await isListening(port)) {
      throw new StartError(
        `127.0.0.1:${port} is taken by ${describeListeners(listenersOn(port))}, perhaps what an earlier npm start ` +
          "left running: stop it, then start again",
      );
    }
  }
  // Asked now, while anvil starts: which oracle sources this machine cannot reach (scripts/lib/source-reach.ts).
  const unreachable = unreachableSources(config.oracle.sources);

  let anvil: AnvilProcess | null = null;
  let solana: SolanaHarness | null = null;
  let relay: RelayProcess | null = null;
  let rates: LocalRateSource | null = null;
  let resolvers: ResolverClient[] = [];
  let stopping = false;
  const stop = async (code: number, why: string) => {
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    say(`\nstopping what npm start started (${why})`);
    // The resolvers' sockets first, so the relay sees them close; bounded, for a relay that no longer answers.
    await Promise.race([Promise.allSettled(resolvers.map((r) => r.stop())), sleep(RESOLVERS_STOP_MS)]);
    // Then everything at once: each group gets SIGTERM, and SIGKILL after the grace; also a group still
    // starting, which no variable holds yet.
    const all = [relay?.stop(), anvil?.stop(), stopAllGroups(GROUP_GRACE_MS), solana?.stop(), rates?.stop()];
    // Bounded too: whatever is left at the exit is killed by the exit hook of scripts/lib/processes.ts.
    await Promise.race([Promise.allSettled(all), sleep(GROUP_GRACE_MS + 2_500)]);
    say(`stopped in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    process.exit(code);
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => void stop(0, signal));
  watchLaunchers((pid) => void stop(0, `the process that launched it, pid ${pid}, ended`));
  // A stop interrupted by a SIGKILL is finished by the reaper (scripts/lib/reaper.ts).
  startReaper();

  try {
    if (await isListening(anvilPort)) {
      const chainId = await rpcChainId(rpcUrl);
      const owner = describeListeners(listenersOn(anvilPort));
      if (chainId !== 31337) {
        throw new StartError(
          `127.0.0.1:${anvilPort} is taken by ${owner}, which is not a local anvil (chain id ${chainId ?? "none"}): stop it`,
        );
      }
      say(`reusing the anvil already on ${rpcUrl}: ${owner}`);
    } else {
      if (!keep) await rm(STATE_DIR, { recursive: true, force: true });
      await mkdir(STATE_DIR, { recursive: true });
      anvil = await startAnvil({ port: anvilPort, statePath: ANVIL_STATE });
      say(`anvil on ${rpcUrl} (chain 31337; ${keep ? "resumed from" : "saved to"} ${relativeState}/anvil.json)`);
    }
    const prepared = await prepareLocalChain(rpcUrl, localHolders());
    if (prepared.deployed) {
      // A fresh chain: relay state about an earlier one (quotes, the keeper's transactions) would be fiction.
      await rm(STATE_DIR, { recursive: true, force: true });
      say("contracts deployed; relay state starts afresh");
    } else {
      say(`contracts already deployed: the chain and the relay state in ${relativeState} are kept`);
    }
    if (prepared.funded.length) say(`funded ${prepared.funded.length} accounts`);
    // Blocks every second from now on, so confirmations (and `final`) advance without other traffic.
    if (anvil) await startIntervalMining(rpcUrl, 1);
    else if (await minesOnlyOnTransactions(rpcUrl)) {
      say("note: this anvil mines only when a transaction comes; start it with --block-time 1 so swaps become final");
    }

    if (await isListening(DEFAULT_SOLANA_PORT)) {
      say(
        `reusing the Solana chain already on 127.0.0.1:${DEFAULT_SOLANA_PORT}: ${describeListeners(listenersOn(DEFAULT_SOLANA_PORT))}`,
      );
    } else {
      solana = await startSolanaHarness({ port: DEFAULT_SOLANA_PORT });
      say(`local Solana chain on ${solana.url} (LiteSVM, a slot every 400 ms, from its genesis)`);
    }

    rates = await startLocalRateSource(rate, undefined, natives).catch((e: unknown) => {
      throw new StartError(`cannot serve the local rate source on ${LOCAL_RATE_SOURCE.url}: ${(e as Error).message}`);
    });
    say(`local rate source on ${rates.url}: ${rate} NGN per USD (--rate to change), beside the public sources`);
    say(
      `  and the native prices: ${natives.ETH} USD per ETH on ${rates.nativeUrls.ETH} (--eth-usd), ` +
        `${natives.SOL} USD per SOL on ${rates.nativeUrls.SOL} (--sol-usd)`,
    );

    relay = await startRelay({
      port: RELAY_PORT,
      inspectorPort: null,
      persistTo: join(STATE_DIR, "relay"),
      vars: relayVars(config, await unreachable),
      // One short line per request and per event (docs/local-stack.md, "Logs"); --verbose: the objects.
      plainVars: verbose ? {} : { LOG_FORMAT: "line" },
      onLine: (line) => line.trim() && (verbose || !WRANGLER_REQUEST_LINE.test(line)) && say(`[relay] ${line}`),
      readyTimeoutMs: 120_000,
    });
    const relayUrl = relay.url;
    const solanaUrl = `http://127.0.0.1:${DEFAULT_SOLANA_PORT}`;
    resolvers = await startLocalResolvers(relayUrl, {
      rpcUrl,
      resolvers: RESOLVERS,
      ...(solanaChain ? { solana: { rpcUrl: solanaUrl } } : {}),
    });
    for (const [i, client] of resolvers.entries()) logResolver(client, RESOLVERS[i]?.name ?? client.address);
    printSummary({
      relayUrl,
      rpcUrl,
      deployment: prepared.deployment,
      solanaUrl: solanaChain ? solanaUrl : null,
      resolvers: RESOLVERS,
      state: relativeState,
    });
    const died = (what: string, output: () => string) => () => {
      if (stopping) return;
      console.error(`\n${what} exited on its own:\n${output().slice(-4_000)}`);
      void stop(1, `${what} exited`);
    };
    void relay.exit.then(died("wrangler dev", relay.output));
    if (anvil) void anvil.exit.then(died("anvil", anvil.output));
  } catch (e) {
    // A stop during start-up fails the step under way; that is no failure to report.
    if (stopping) return;
    console.error(`\nnpm start failed: ${(e as Error).message}`);
    await stop(1, "it failed");
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Output to a pipe whose reader is gone (a process manager's, stopped with it) must not end the stop half-way.
process.stdout.on("error", () => {});
process.stderr.on("error", () => {});

main().catch((e: unknown) => {
  if (e instanceof StartError || e instanceof ConfigError || e instanceof ChainNotReadyError) {
    console.error(`npm start: ${e.message}`);
    process.exit(1);
  }
  throw e;
});
