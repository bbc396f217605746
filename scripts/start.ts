/**
 * `npm start`: the whole local stack, with no cloud account. Checks the relay configuration, starts
 * anvil on 127.0.0.1:8545 (or reuses one already there that runs the local contracts), deploys and
 * funds, starts the local Solana chain on 127.0.0.1:8899 (scripts/lib/solana-harness/), starts
 * `wrangler dev` on 127.0.0.1:8787 with local D1 migrated and both keepers' keys, connects two reference
 * resolvers to the EVM and Solana corridors, serves a local rate source on 127.0.0.1:8790 (so the NGN/USD
 * band and the ETH and SOL prices exist offline; `--rate`, `--eth-usd` and `--sol-usd` set them), and
 * prints where everything is. Ctrl-C stops it all.
 * `--keep` resumes the anvil chain and the relay state of the last run instead of starting afresh (the
 * Solana chain always starts from its genesis). See docs/local-stack.md.
 */
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { base58 } from "@scure/base";
import type { Keypair } from "@solana/web3.js";
import { formatUnits } from "viem";
import type { ResolverClient } from "../src/clients/resolver/client";
import { anvilAccount } from "../src/clients/resolver/keys";
import { ConfigError } from "../src/config/load";
import { LOCAL_RATE_SOURCE } from "../src/config/local";
import type { EvmChain, SolanaChain } from "../src/config/schema";
import { exampleDevVars, root, servedConfig } from "./lib/dev-config";
import { ANVIL_KEEPER, type Deployment, expectedDeployment } from "./lib/evm-deploy";
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
  anvilPrivateKey,
  ChainNotReadyError,
  FUNDED_AMOUNT,
  LOCAL_ACCOUNTS,
  LOCAL_RATE,
  type LocalResolver,
  localHolders,
  localKeeperVars,
  minesOnlyOnTransactions,
  prepareLocalChain,
  type RelayProcess,
  rpcChainId,
  startAnvil,
  startIntervalMining,
  startLocalResolvers,
  startRelay,
} from "./lib/local-stack";
import { isListening } from "./lib/processes";
import { localSolanaAccounts } from "./lib/solana-harness/accounts";
import { LOCAL_TOKEN_DECIMALS, PARTICIPANT_LAMPORTS, PARTICIPANT_TOKENS } from "./lib/solana-harness/genesis";
import { DEFAULT_SOLANA_PORT, type SolanaHarness, startSolanaHarness } from "./lib/solana-harness/server";

const RELAY_PORT = 8787;
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
function localChains(): { evm: EvmChain; solana: SolanaChain | null } {
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
  return { evm: chain, solana: localSolana };
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
  const { evm: chain, solana: solanaChain } = localChains();
  const rpcUrl = chain.rpcUrl.replace("localhost", "127.0.0.1").replace(/\/+$/, "");
  const anvilPort = Number(new URL(rpcUrl).port || 80);
  if (await isListening(RELAY_PORT)) {
    throw new StartError(`something already listens on 127.0.0.1:${RELAY_PORT}: stop it (another npm start?) first`);
  }

  let anvil: AnvilProcess | null = null;
  let solana: SolanaHarness | null = null;
  let relay: RelayProcess | null = null;
  let rates: LocalRateSource | null = null;
  let resolvers: ResolverClient[] = [];
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    say("\nstopping what npm start started");
    await Promise.allSettled(resolvers.map((r) => r.stop()));
    await relay?.stop();
    await anvil?.stop();
    await solana?.stop();
    await rates?.stop();
    process.exit(code);
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => void stop(0));

  try {
    if (await isListening(anvilPort)) {
      const chainId = await rpcChainId(rpcUrl);
      if (chainId !== 31337) {
        throw new StartError(
          `127.0.0.1:${anvilPort} is taken by something that is not a local anvil (chain id ${chainId ?? "none"}): stop it`,
        );
      }
      say(`reusing the anvil already on ${rpcUrl}`);
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
      say(`reusing the Solana chain already on 127.0.0.1:${DEFAULT_SOLANA_PORT}`);
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
      vars: keeperVars(),
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
    printSummary(relayUrl, rpcUrl, prepared.deployment, solanaChain ? solanaUrl : null);
    const died = (what: string, output: () => string) => () => {
      if (stopping) return;
      console.error(`\n${what} exited on its own:\n${output().slice(-4_000)}`);
      void stop(1);
    };
    void relay.exit.then(died("wrangler dev", relay.output));
    if (anvil) void anvil.exit.then(died("anvil", anvil.output));
  } catch (e) {
    console.error(`\nnpm start failed: ${(e as Error).message}`);
    await stop(1);
  }
}

/**
 * The keepers' keys (EVM and Solana) and the other local secrets of .dev.vars.example, in the env file
 * `startRelay` hands to wrangler. A developer's own .dev.vars wins, and then it is theirs to complete.
 */
function keeperVars(): Record<string, string> {
  const vars = exampleDevVars();
  if (Object.keys(vars).length === 0) {
    say(
      "using .dev.vars (it must set KEEPER_PRIVATE_KEY and KEEPER_SOLANA_KEY for executions; see docs/local-stack.md)",
    );
    return {};
  }
  return localKeeperVars(vars);
}

function logResolver(client: ResolverClient, name: string): void {
  const log = (message: string) => say(`[${name}] ${message}`);
  const { cngn, usdc } = expectedDeployment();
  const { mints } = localSolanaAccounts();
  const symbols = new Map([
    [cngn.toLowerCase(), "cNGN"],
    [usdc.toLowerCase(), "USDC"],
    [mints.cNGN.publicKey.toBase58(), "cNGN"],
    [mints.USDC.publicKey.toBase58(), "USDC"],
  ]);
  const amount = (token: string, value: string | bigint) => {
    const symbol = symbols.get(token.startsWith("0x") ? token.toLowerCase() : token) ?? token;
    return `${formatUnits(BigInt(value), 6)} ${symbol}`;
  };
  client.on("answer", ({ rfq, reply, elapsedMs }) =>
    log(
      reply.type === "bid"
        ? `bid ${rfq.rfqId}: ${amount(rfq.buyToken, reply.outputAmount)} for ${amount(rfq.sellToken, rfq.sellAmount)} (${elapsedMs} ms)`
        : `decline ${rfq.rfqId}: ${reply.reason}`,
    ),
  );
  client.on("signed", ({ rfq, outputAmount, elapsedMs }) =>
    log(`signed ${rfq.rfqId}: the swap moves ${amount(rfq.buyToken, outputAmount)} as bid (${elapsedMs} ms)`),
  );
  client.on("error", ({ error }) => log(`error: ${error.message}`));
  client.on("frame", ({ frame }) => {
    if (frame.type === "result") log(`result ${frame.rfqId}: ${frame.won ? "won" : "lost"}`);
    if (frame.type === "execution") log(`execution ${frame.quoteId}: ${frame.status} ${frame.txHash ?? ""}`);
    if (frame.type === "error") log(`relay error ${frame.code}: ${frame.message}`);
  });
  client.on("close", ({ code, reason }) => log(`socket closed ${code} ${reason}`));
}

function printSummary(relayUrl: string, rpcUrl: string, d: Deployment, solanaUrl: string | null): void {
  const amount = formatUnits(FUNDED_AMOUNT, 6);
  const account = (i: number) => `${anvilAccount(i).address}  key ${anvilPrivateKey(i)}`;
  say(`
The local stack is up.

  relay       ${relayUrl}   (wrangler dev; state in ${relativeState})
  chain       ${rpcUrl}   (anvil, chain 31337, a block a second)
  contracts   Permit2 ${d.permit2}   RfqExecutor ${d.executor}
              cNGN ${d.cngn}   USDC ${d.usdc}
              Validation ${d.validation}   FeeController ${d.feeController}
  resolvers   ${RESOLVERS.map((r) => `${r.name.padEnd(6)} #${r.index} ${account(r.index)}`).join("\n              ")}
              (${LOCAL_RATE} USDC per cNGN less their spread, or the oracle band's mid when there is one)
  takers      ${LOCAL_ACCOUNTS.takers.map((i) => `#${i} ${account(i)}`).join("\n              ")}
              (${amount} cNGN and USDC each; spare resolvers #3 and #4 are funded the same)
  keeper      #${LOCAL_ACCOUNTS.keeper} ${ANVIL_KEEPER}
${solanaUrl ? solanaSummary(solanaUrl) : ""}
  These are public development keys: they hold value on these local chains only.

  Try it: npm run demo    npm run demo -- --chain 103 (Solana)    npm run demo -- --limit (a limit order)
  Stop: Ctrl-C
`);
}

main().catch((e: unknown) => {
  if (e instanceof StartError || e instanceof ConfigError || e instanceof ChainNotReadyError) {
    console.error(`npm start: ${e.message}`);
    process.exit(1);
  }
  throw e;
});

/** The local Solana chain's accounts (docs/local-stack.md, "Seeded accounts"), with the keys a user needs. */
function solanaSummary(url: string): string {
  const { mints, keeper, treasury, resolvers, takers } = localSolanaAccounts();
  const address = (k: Keypair) => k.publicKey.toBase58();
  const key = (k: Keypair) => `  key ${base58.encode(k.secretKey)}`;
  const names = new Map(RESOLVERS.map((r) => [r.index, r.name]));
  const resolverLines = resolvers.map((k, i) => {
    const name = names.get(i + 1);
    return `${(name ?? "spare").padEnd(6)} resolver:${i + 1} ${address(k)}${name ? "" : key(k)}`;
  });
  const takerLines = takers.map((k, i) => `taker:${i + 5} ${address(k)}${key(k)}`);
  const indent = "\n                        ";
  return `
  solana      ${url}   (LiteSVM, chain 103, a slot every 400 ms, from its genesis)
              USDC mint ${address(mints.USDC)}   cNGN mint ${address(mints.cNGN)}
              resolvers ${resolverLines.join(indent)}
              takers    ${takerLines.join(indent)}
              keeper    ${address(keeper)} (KEEPER_SOLANA_KEY)   treasury ${address(treasury)}
              (resolvers and takers: ${formatUnits(PARTICIPANT_LAMPORTS, 9)} SOL and ${formatUnits(PARTICIPANT_TOKENS, LOCAL_TOKEN_DECIMALS)} USDC and cNGN each)
`;
}
