/**
 * The local stack a chaos run crashes, put together from the pieces `npm start` uses
 * (scripts/lib/local-stack.ts): anvil with the contracts and a block a second, the LiteSVM Solana chain,
 * the local rate source, `wrangler dev` with persisted state (here a crashable one), and the two
 * reference resolvers. Everything on free loopback ports, so it runs beside an `npm start` or the e2e tests.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Address, createPublicClient, http, type PublicClient } from "viem";
import type { ResolverClient } from "../../../src/clients/resolver/client";
import { fetchRelayConfig, type RelayConfigRecord } from "../../../src/clients/resolver/relay-config";
import { LOCAL_KEEPER_POOL_SIZE, localKeeperKeys } from "../evm-deploy";
import { DEFAULT_LOCAL_RATE, parseRate, startLocalRateSource } from "../local-rates";
import {
  localHolders,
  localSolanaKeeperSecret,
  offlineRelayConfig,
  prepareLocalChain,
  startAnvil,
  startIntervalMining,
  startLocalResolvers,
} from "../local-stack";
import { freePort } from "../processes";
import { startSolanaHarness } from "../solana-harness/server";
import { type CrashableOptions, CrashableRelay } from "./crashes";
import { type HeldBroadcasts, holdBroadcasts } from "./held-broadcasts";

/** The chains as the relay reaches them (the keeper's RPC proxies, when a crash is to be aimed). */
export interface ChaosRelayChains {
  rpcUrl: string;
  solanaRpcUrl: string;
  /** The local rate source, for a band (limit orders need one) and native prices; none: offline. */
  rateSourceUrl?: string;
  /** Keys of the keeper's EVM wallet pool. */
  wallets: number;
  /**
   * Which key of the local pool is the first (0: anvil's #9). A relay beside another on the same chain
   * takes keys the other does not: two keepers signing with one key would each find the other's nonces taken.
   */
  firstWallet?: number;
}

/**
 * How the chaos relay is started, every time: the local configuration on these chains, the local keepers'
 * keys, one port and one state directory for all its lives.
 */
export async function chaosRelayOptions(
  chains: ChaosRelayChains,
  onLine?: (line: string) => void,
): Promise<CrashableOptions> {
  const config = offlineRelayConfig(chains.rpcUrl, chains.rateSourceUrl);
  const solana = (c: (typeof config.chains)[number]) =>
    c.kind === "solana" ? { ...c, rpcUrl: chains.solanaRpcUrl } : c;
  return {
    port: await freePort(),
    persistTo: await mkdtemp(join(tmpdir(), "relay-chaos-")),
    vars: {
      RELAY_CONFIG: JSON.stringify({ ...config, chains: config.chains.map(solana) }),
      KEEPER_PRIVATE_KEY: localKeeperKeys(LOCAL_KEEPER_POOL_SIZE)
        .slice(chains.firstWallet ?? 0, (chains.firstWallet ?? 0) + chains.wallets)
        .join(","),
      KEEPER_SOLANA_KEY: localSolanaKeeperSecret(),
      ADMIN_TOKEN: crypto.randomUUID(),
    },
    plainVars: { LOG_FORMAT: "line" },
    readyTimeoutMs: 120_000,
    ...(onLine ? { onLine } : {}),
  };
}

/**
 * The two resolvers of `npm start` (alpha at the rate, beta 15 bps under it) on both chains; `log` hears
 * their sockets close, reconnect and fail.
 */
export async function chaosResolvers(
  relayUrl: string,
  rpcUrl: string,
  solanaRpcUrl: string,
  log?: (line: string) => void,
): Promise<ResolverClient[]> {
  const clients = await startLocalResolvers(relayUrl, {
    rpcUrl,
    resolvers: [
      { index: 1, name: "alpha", spreadBps: 0 },
      { index: 2, name: "beta", spreadBps: 15 },
    ],
    solana: { rpcUrl: solanaRpcUrl },
  });
  for (const client of log ? clients : []) {
    const say = (line: string) => log?.(`[${client.address.slice(0, 8)}] ${line}`);
    client.on("close", ({ corridor, code, reason }) => say(`closed ${corridor} ${code} ${reason}`));
    client.on("reconnect", ({ corridor, attempt, delayMs }) =>
      say(`reconnect ${corridor} #${attempt} in ${delayMs} ms`),
    );
    client.on("welcome", ({ corridor }) => say(`welcome ${corridor}`));
    client.on("error", ({ corridor, error }) => say(`error ${corridor}: ${error.message}`));
  }
  return clients;
}

export interface ChaosStack {
  relay: CrashableRelay;
  /** The keeper's RPC on each chain, through a proxy a crash can be aimed at. */
  broadcasts: HeldBroadcasts[];
  record: RelayConfigRecord;
  client: PublicClient;
  solanaRpcUrl: string;
  stop(): Promise<void>;
}

/** The whole stack, fresh, with `holders` given both tokens (the chaos takers). */
export async function startChaosStack(options: {
  wallets: number;
  holders: readonly Address[];
  onRelayLine?: (line: string) => void;
}): Promise<ChaosStack> {
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch(() => {});
  };
  try {
    const anvil = await startAnvil();
    stops.push(() => anvil.stop());
    const local = localHolders();
    await prepareLocalChain(anvil.rpcUrl, { ...local, takers: [...local.takers, ...options.holders] });
    await startIntervalMining(anvil.rpcUrl, 1);
    const solana = await startSolanaHarness({ port: 0 });
    stops.push(() => solana.stop());
    const rates = await startLocalRateSource(parseRate(DEFAULT_LOCAL_RATE), 0);
    stops.push(() => rates.stop());
    const broadcasts = [await holdBroadcasts(anvil.rpcUrl), await holdBroadcasts(solana.url)];
    stops.push(async () => {
      await Promise.all(broadcasts.map((b) => b.stop()));
    });
    const [evmRpc, solanaRpc] = broadcasts.map((b) => b.url) as [string, string];
    const relayOptions = await chaosRelayOptions(
      { rpcUrl: evmRpc, solanaRpcUrl: solanaRpc, rateSourceUrl: rates.url, wallets: options.wallets },
      options.onRelayLine,
    );
    stops.push(() => rm(relayOptions.persistTo, { recursive: true, force: true }));
    const relay = await CrashableRelay.start(relayOptions);
    stops.push(() => relay.stop());
    const resolvers = await chaosResolvers(relay.url, anvil.rpcUrl, solana.url, options.onRelayLine);
    stops.push(async () => {
      await Promise.all(resolvers.map((r) => r.stop()));
    });
    return {
      relay,
      broadcasts,
      record: await fetchRelayConfig(relay.url),
      client: createPublicClient({ transport: http(anvil.rpcUrl), pollingInterval: 250 }),
      solanaRpcUrl: solana.url,
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}
