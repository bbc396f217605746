/**
 * The pieces of a local relay stack, shared by `npm start` (scripts/start.ts), the e2e tests'
 * global setup and the benchmarks: anvil from npm, the settlement contracts deployed and funded,
 * `wrangler dev`, and reference resolvers. Loopback only; every key here is an anvil dev key.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { base58 } from "@scure/base";
import {
  type Address,
  createPublicClient,
  createTestClient,
  type Hex,
  http,
  type LocalAccount,
  maxUint256,
  parseAbi,
  parseEther,
  toHex,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { ResolverClient } from "../../src/clients/resolver/client";
import {
  type InventorySource,
  inventoryByChain,
  rpcInventory,
  staticInventory,
} from "../../src/clients/resolver/inventory";
import { anvilAccount, solanaSigner } from "../../src/clients/resolver/keys";
import { bandSpreadPricer, fixedRatePricer, type Pricer, parseDecimal } from "../../src/clients/resolver/pricing";
import {
  chainsFromRecord,
  corridorsFromRecord,
  fetchRelayConfig,
  targetKey,
} from "../../src/clients/resolver/relay-config";
import { solanaRpcInventory } from "../../src/clients/resolver/solana-inventory";
import { LOCAL_NATIVE_SOURCES, LOCAL_RATE_SOURCE, localConfig } from "../../src/config/local";
import type { RelayConfig } from "../../src/config/schema";
import {
  ANVIL_DEPLOYER_KEY,
  type Deployment,
  deployContracts,
  expectedDeployment,
  fund,
  LOCAL_KEEPER_POOL_SIZE,
  localKeeperKeys,
  localKeeperPool,
} from "./evm-deploy";
import { answersOk, freePort, spawnGroup, waitUntil } from "./processes";
import { localSolanaKeypair } from "./solana-harness/accounts";

const require = createRequire(import.meta.url);
const root = resolve(import.meta.dirname, "../..");
const run = promisify(execFile);

/** Who is who among anvil's ten funded dev accounts, in every local stack. */
export const LOCAL_ACCOUNTS = {
  /** Deploys the contracts and owns the test tokens. */
  deployer: 0,
  /** Funded and approved for the executor; `npm start` runs 1 and 2, 3 and 4 are spare. */
  resolvers: [1, 2, 3, 4],
  /** Funded with both tokens, no approval: the first swap shows the EIP-2612 permit path. */
  takers: [5, 6, 7, 8],
  /** The keeper the executor allows (`ANVIL_KEEPER`); pays the gas. */
  keeper: 9,
} as const;

/** The local takers and resolvers of LOCAL_ACCOUNTS, as `prepareLocalChain` funds them. */
export const localHolders = () => ({
  takers: LOCAL_ACCOUNTS.takers.map((i) => anvilAccount(i).address),
  resolvers: LOCAL_ACCOUNTS.resolvers.map((i) => anvilAccount(i)),
});

/** Of each test token, per funded account (6 decimals). */
export const FUNDED_AMOUNT = 1_000_000_000_000n;

/** The private key of anvil dev account `index`. Public knowledge: for local chains only. */
export function anvilPrivateKey(index: number): Hex {
  const key = anvilAccount(index).getHdKey().privateKey;
  if (!key) throw new Error(`no private key for anvil account ${index}`);
  return toHex(key);
}

/**
 * The local Solana keeper's secret as `KEEPER_SOLANA_KEY` takes it: base58 of its 64-byte secret key
 * (docs/settlement.md, "The keeper's key on Solana"). Public knowledge: for the local chain only.
 */
export function localSolanaKeeperSecret(): string {
  return base58.encode(localSolanaKeypair("keeper").secretKey);
}

/**
 * The local EVM keeper secret with `wallets` wallets of the local pool (1 to 4; docs/settlement.md,
 * "The wallet pool"): anvil's account #9 alone by default, the pool's keys separated by commas otherwise.
 */
export function localKeeperSecret(wallets = 1): string {
  if (!Number.isInteger(wallets) || wallets < 1 || wallets > LOCAL_KEEPER_POOL_SIZE) {
    throw new Error(`the local keeper pool has 1 to ${LOCAL_KEEPER_POOL_SIZE} wallets, not ${wallets}`);
  }
  return localKeeperKeys(wallets).join(",");
}

/**
 * The keepers' keys `npm start` hands to `wrangler dev` beside the local secrets of .dev.vars.example
 * (`example`, which wins): anvil's account #9 on EVM (or the first `evmWallets` of the local pool), the
 * local chain's `keeper` on Solana.
 */
export function localKeeperVars(example: Record<string, string>, evmWallets = 1): Record<string, string> {
  return {
    KEEPER_PRIVATE_KEY: localKeeperSecret(evmWallets),
    KEEPER_SOLANA_KEY: localSolanaKeeperSecret(),
    ...example,
  };
}

// ---------------------------------------------------------------------------------------------------
// anvil

export interface AnvilProcess {
  rpcUrl: string;
  port: number;
  chainId: number;
  stop(): Promise<void>;
  /** What anvil printed, for failure messages. */
  output(): string;
  /** Settles when anvil exits, stopped or not. */
  readonly exit: Promise<number | null>;
}

/**
 * The anvil binary from the `@foundry-rs/anvil-<platform>-<arch>` package npm installed beside
 * `@foundry-rs/anvil`, run directly so stopping it needs no wrapper process to forward signals.
 */
export function anvilBinary(): string {
  const arches: Record<string, string> = { x64: "amd64", arm64: "arm64" };
  const arch = arches[process.arch];
  if (!arch) throw new Error(`anvil: no package for ${process.platform}/${process.arch}`);
  const exe = process.platform === "win32" ? "anvil.exe" : "anvil";
  return require.resolve(`@foundry-rs/anvil-${process.platform}-${arch}/bin/${exe}`);
}

export interface AnvilOptions {
  /** Default: a free one. */
  port?: number;
  /** Default: anvil's ten. */
  accounts?: number;
  /**
   * A file the chain is loaded from (when it exists) and saved to every second and at stop, so a stack
   * started again resumes the same chain. Default: none, a fresh chain each time.
   */
  statePath?: string;
  onLine?: (line: string) => void;
  readyTimeoutMs?: number;
}

/**
 * A fresh anvil (chain id 31337, the dev mnemonic's accounts) on loopback, ready for RPC. It mines a
 * block per transaction; `startIntervalMining` then gives it a block time once the contracts are in.
 */
export async function startAnvil(options: AnvilOptions = {}): Promise<AnvilProcess> {
  const chainId = 31337;
  // Without a port, anvil binds port 0 and says which it got: a port picked free beforehand could be
  // taken by another process before anvil binds it, and another anvil there would answer for this one.
  const args = ["--host", "127.0.0.1", "--port", String(options.port ?? 0), "--chain-id", String(chainId)];
  if (options.accounts) args.push("--accounts", String(options.accounts));
  if (options.statePath)
    args.push("--state", options.statePath, "--state-interval", "1", "--preserve-historical-states");
  // Its "Listening on" line is the only way to learn a port it chose: not silenced then.
  if (!options.onLine && options.port !== undefined) args.push("--silent");
  let port = options.port ?? null;
  const proc = spawnGroup(anvilBinary(), args, {
    onLine: (line) => {
      port ??= listeningPort(line);
      options.onLine?.(line);
    },
  });
  const urlOf = (p: number) => `http://127.0.0.1:${p}`;
  try {
    await waitUntil(async () => port !== null && (await rpcChainId(urlOf(port))) === chainId, {
      what: `anvil on ${options.port === undefined ? "a port of its own" : urlOf(options.port)}`,
      timeoutMs: options.readyTimeoutMs ?? 30_000,
      process: proc,
    });
  } catch (e) {
    await proc.stop();
    throw new Error(`anvil did not become ready: ${(e as Error).message}\n${proc.output()}`);
  }
  if (port === null) throw new Error("anvil: ready with no port");
  const rpcUrl = urlOf(port);
  return { rpcUrl, port, chainId, stop: () => proc.stop(), output: () => proc.output(), exit: proc.exit };
}

/** The port of anvil's "Listening on 127.0.0.1:<port>" line, or null for any other line. */
export function listeningPort(line: string): number | null {
  const match = /^Listening on [\d.]+:(\d+)$/.exec(line.trim());
  return match ? Number(match[1]) : null;
}

async function rpc(rpcUrl: string, method: string, params: unknown[] = []): Promise<unknown> {
  const res = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    signal: AbortSignal.timeout(2_000),
  });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/** The chain id a JSON-RPC endpoint answers with, or null when nothing answers there. */
export async function rpcChainId(rpcUrl: string): Promise<number | null> {
  try {
    return Number(await rpc(rpcUrl, "eth_chainId"));
  } catch {
    return null;
  }
}

/**
 * From now on, a block every `seconds` (transactions wait for it), so confirmations, and with them
 * finality, advance on their own as on a real chain.
 */
export async function startIntervalMining(rpcUrl: string, seconds = 1): Promise<void> {
  await rpc(rpcUrl, "evm_setIntervalMining", [seconds]);
}

/** Whether anvil is on automine, with no block time: confirmations then wait for other transactions. */
export async function minesOnlyOnTransactions(rpcUrl: string): Promise<boolean> {
  return (await rpc(rpcUrl, "anvil_getAutomine").catch(() => false)) === true;
}

// ---------------------------------------------------------------------------------------------------
// contracts

const erc20 = parseAbi([
  "function balanceOf(address) view returns (uint256)",
  "function allowance(address, address) view returns (uint256)",
]);

export class ChainNotReadyError extends Error {
  override readonly name = "ChainNotReadyError";
}

export interface PreparedChain {
  deployment: Deployment;
  /** False when the contracts were already there (an anvil started before, kept running). */
  deployed: boolean;
  /** The accounts that got tokens now; those already holding enough are left alone. */
  funded: Address[];
}

/**
 * Makes a local anvil ready for the relay: the contracts at the local configuration's addresses
 * (deployed unless they already are), each taker holding both tokens and each resolver holding both
 * and having approved the executor. Throws a ChainNotReadyError, saying what to do, for a chain where
 * neither holds: another chain id, or an anvil where the deployer already sent other transactions.
 */
export async function prepareLocalChain(
  rpcUrl: string,
  holders: { takers: readonly Address[]; resolvers: readonly LocalAccount[]; amount?: bigint },
): Promise<PreparedChain> {
  const client = createPublicClient({ transport: http(rpcUrl) });
  const chainId = await client.getChainId();
  if (chainId !== 31337) throw new ChainNotReadyError(`${rpcUrl} is chain ${chainId}, not the local 31337`);
  const expected = expectedDeployment();
  const codes = await Promise.all(Object.values(expected).map((address) => client.getCode({ address })));
  const present = codes.filter((c) => c && c !== "0x").length;
  let deployment = expected;
  let deployed = false;
  if (present < codes.length) {
    const deployer = privateKeyToAccount(ANVIL_DEPLOYER_KEY).address;
    const sent = await client.getTransactionCount({ address: deployer });
    if (present > 0 || sent > 0) {
      throw new ChainNotReadyError(
        `the anvil at ${rpcUrl} is neither fresh nor running the local contracts (the deployer has sent ${sent} ` +
          "transactions); stop it, or restart it without --state, and run this again",
      );
    }
    deployment = await deployContracts(rpcUrl);
    deployed = true;
  }

  const pool = await fundKeeperPool(rpcUrl);

  const amount = holders.amount ?? FUNDED_AMOUNT;
  const tokens = [deployment.cngn, deployment.usdc];
  const short = async (holder: Address) => {
    const balances = await Promise.all(
      tokens.map((address) => client.readContract({ address, abi: erc20, functionName: "balanceOf", args: [holder] })),
    );
    return balances.some((b) => b < amount / 2n);
  };
  const unapproved = async (holder: Address) => {
    const allowances = await Promise.all(
      tokens.map((address) =>
        client.readContract({ address, abi: erc20, functionName: "allowance", args: [holder, deployment.executor] }),
      ),
    );
    return allowances.some((a) => a < maxUint256 / 2n);
  };
  const takers: Address[] = [];
  for (const t of holders.takers) if (await short(t)) takers.push(t);
  const resolvers: LocalAccount[] = [];
  for (const r of holders.resolvers) if ((await short(r.address)) || (await unapproved(r.address))) resolvers.push(r);
  if (takers.length || resolvers.length) await fund(rpcUrl, deployment, { takers, resolvers, amount });
  return { deployment, deployed, funded: [...pool, ...takers, ...resolvers.map((r) => r.address)] };
}

/** The ETH each wallet of the local keeper pool is given (they pay the gas of every fill they send). */
const KEEPER_POOL_ETH = parseEther("10000");

/**
 * Gives the local keeper pool's wallets ETH (`anvil_setBalance`) when they hold less than half of
 * `KEEPER_POOL_ETH`: anvil funds its account #9 itself, not the pool's derived keys. The wallets given ETH.
 */
export async function fundKeeperPool(rpcUrl: string): Promise<Address[]> {
  const transport = http(rpcUrl);
  const client = createPublicClient({ transport });
  const test = createTestClient({ mode: "anvil", transport });
  const funded: Address[] = [];
  for (const address of localKeeperPool()) {
    if ((await client.getBalance({ address })) >= KEEPER_POOL_ETH / 2n) continue;
    await test.setBalance({ address, value: KEEPER_POOL_ETH });
    funded.push(address);
  }
  return funded;
}

// ---------------------------------------------------------------------------------------------------
// relay

/**
 * The local configuration pointed at `rpcUrl`, with an oracle that never leaves the machine. With
 * `rateSourceUrl` (a local rate source, scripts/lib/local-rates.ts) that server is the oracle's only
 * source, for NGN/USD and for the native prices on its other paths, and the corridors have a band and the
 * chains a native price from it, as under `npm start` offline; without it no corridor asks for a band, no
 * native is priced, and the one source is a loopback port nobody listens on, so even `GET /v1/rates` polls
 * nothing public.
 */
export function offlineRelayConfig(rpcUrl: string, rateSourceUrl?: string): RelayConfig {
  const config = structuredClone(localConfig);
  for (const chain of config.chains) if (chain.kind === "evm" && chain.chainId === 31337) chain.rpcUrl = rpcUrl;
  const source = rateSourceUrl
    ? { ...LOCAL_RATE_SOURCE, url: rateSourceUrl }
    : { name: "offline", adapter: "open-er-api" as const, url: "http://127.0.0.1:9/offline" };
  // The native paths on the same server as the NGN/USD one.
  const natives = rateSourceUrl
    ? LOCAL_NATIVE_SOURCES.map((s) => ({ ...s, url: new URL(new URL(s.url).pathname, rateSourceUrl).href }))
    : [];
  config.oracle = {
    ...config.oracle,
    sources: [{ ...source, base: "USD", quote: "NGN" }, ...natives],
    corridors: rateSourceUrl ? config.oracle.corridors : [],
    natives: rateSourceUrl ? config.oracle.natives : [],
  };
  return config;
}

export interface RelayProcess {
  url: string;
  stop(): Promise<void>;
  /**
   * SIGKILL to wrangler and workerd at once, as a crash or a lost machine would end them: nothing is
   * flushed or stopped in order, and the state (`persistTo`) and the env file stay for a restart.
   * Resolves once wrangler has exited.
   */
  crash(): Promise<void>;
  /** What wrangler printed, for failure messages. */
  output(): string;
  /** Settles when wrangler exits, stopped or not. */
  readonly exit: Promise<number | null>;
}

export interface StartRelayOptions {
  /**
   * Worker variables and secrets, handed to wrangler in an env file readable only by this user inside
   * the state directory (never on the command line, where `ps` would show them); removed at stop.
   */
  vars?: Record<string, string>;
  /** Variables that are not secret (`LOG_FORMAT`), given on wrangler's command line with `--var`. */
  plainVars?: Record<string, string>;
  /** Default: a free one. */
  port?: number;
  /** Default: a free one; `null` leaves wrangler's default. */
  inspectorPort?: number | null;
  /**
   * Where local D1 and Durable Object state live; kept at stop. Default: a fresh temporary directory,
   * removed at stop.
   */
  persistTo?: string;
  onLine?: (line: string) => void;
  readyTimeoutMs?: number;
}

const wranglerBin = join(root, "node_modules/wrangler/bin/wrangler.js");

/** Variables as a dotenv file: single-quoted, so JSON values stay literal. */
export function envFileText(vars: Record<string, string>): string {
  return Object.entries(vars)
    .map(([name, value]) => {
      if (!/^[A-Z_][A-Z0-9_]*$/.test(name)) throw new Error(`not a variable name: ${name}`);
      if (/['\n\r]/.test(value)) throw new Error(`${name}: a value for the env file cannot hold a quote or a newline`);
      return `${name}='${value}'\n`;
    })
    .join("");
}

/** `wrangler dev` on loopback with local D1 migrated, ready to serve (`GET /v1/config` answers). */
export async function startRelay(options: StartRelayOptions = {}): Promise<RelayProcess> {
  const state = options.persistTo ?? (await mkdtemp(join(tmpdir(), "relay-e2e-")));
  const removeState = () => (options.persistTo ? Promise.resolve() : rm(state, { recursive: true, force: true }));
  // No fetch of the `Request.cf` object from workers.cloudflare.com: the relay reads nothing of it, and
  // offline the failed fetch printed a warning with a stack trace at every start (docs/local-stack.md).
  const env = {
    ...process.env,
    WRANGLER_SEND_METRICS: "false",
    CI: "true",
    NO_COLOR: "1",
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
  };
  await run(process.execPath, [wranglerBin, "d1", "migrations", "apply", "DB", "--local", "--persist-to", state], {
    cwd: root,
    env,
  });
  const vars = options.vars ?? {};
  const envFile = join(state, "relay-vars.env");
  // Only with variables to give: an env file given to wrangler may stand in for the developer's .dev.vars.
  const envArgs = Object.keys(vars).length > 0 ? ["--env-file", envFile] : [];
  if (envArgs.length > 0) await writeFile(envFile, envFileText(vars), { mode: 0o600 });
  // A port picked free (`freePort`) can be taken by another process before wrangler binds it: wrangler
  // then exits with EADDRINUSE, and a start on ports it picked is tried again on others. It is ready
  // once it said it listens on its port ("Ready on"), so a relay another process runs on a port this
  // one lost is never taken for it.
  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await freePort());
    const inspectorPort = options.inspectorPort === undefined ? await freePort() : options.inspectorPort;
    let listening = false;
    const proc = spawnGroup(
      process.execPath,
      [
        wranglerBin,
        "dev",
        "--ip",
        "127.0.0.1",
        "--port",
        String(port),
        ...(inspectorPort === null ? [] : ["--inspector-port", String(inspectorPort)]),
        "--persist-to",
        state,
        "--show-interactive-dev-session=false",
        ...envArgs,
        ...Object.entries(options.plainVars ?? {}).flatMap(([name, value]) => ["--var", `${name}:${value}`]),
      ],
      {
        cwd: root,
        env,
        onLine: (line) => {
          if (readyPort(line) === port) listening = true;
          options.onLine?.(line);
        },
      },
    );
    const url = `http://127.0.0.1:${port}`;
    const stop = async () => {
      await proc.stop();
      await rm(envFile, { force: true });
      await removeState();
    };
    try {
      await waitUntil(async () => listening && (await answersOk(`${url}/v1/config`)), {
        what: `wrangler dev on ${url}`,
        timeoutMs: options.readyTimeoutMs ?? 60_000,
        intervalMs: 200,
        process: proc,
      });
    } catch (e) {
      const taken = /EADDRINUSE/.test(proc.output());
      const picked = options.port === undefined || options.inspectorPort === undefined;
      if (taken && picked && attempt < 3) {
        await proc.stop();
        options.onLine?.(`wrangler dev: a port picked for it was taken before it bound it (EADDRINUSE); again`);
        continue;
      }
      await stop();
      throw new Error(`wrangler dev did not become ready: ${(e as Error).message}\n${proc.output()}`);
    }
    return { url, stop, crash: () => proc.kill("SIGKILL"), output: () => proc.output(), exit: proc.exit };
  }
}

/** The port of wrangler's "Ready on http://<host>:<port>" line, or null for any other line. */
export function readyPort(line: string): number | null {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the colour codes of a terminal's output
  const match = /Ready on https?:\/\/[^\s/]+:(\d+)/.exec(line.replace(/\x1b\[[0-9;]*m/g, ""));
  return match ? Number(match[1]) : null;
}

// ---------------------------------------------------------------------------------------------------
// resolvers

/** The local fixed rate: USDC per cNGN, i.e. about 1,580 naira to the dollar. */
export const LOCAL_RATE = "0.000633";

export interface LocalResolver {
  /** Anvil dev account index: the node's key; on Solana the local account `resolver:<index>`. */
  index: number;
  name: string;
  /** How far under the rate (or the band's mid) it quotes. */
  spreadBps: number;
}

/**
 * With an oracle band, `spreadBps` under its mid, so the bid is never steered away as outside the band;
 * without one (an offline oracle), the fixed `rate` in USDC per cNGN shaded by the same spread.
 */
export function localPricer(spreadBps: number, rate = LOCAL_RATE): Pricer {
  const base = parseDecimal(rate);
  const fixed = fixedRatePricer({
    rate: { num: base.num * BigInt(10_000 - spreadBps), den: base.den * 10_000n },
    sellSymbol: "cNGN",
  });
  const banded = bandSpreadPricer({ spreadBps });
  return (request) => (request.band ? banded(request) : fixed(request));
}

export interface LocalResolversOptions {
  /** The EVM chain's JSON-RPC (anvil), where their EVM inventory is read. */
  rpcUrl: string;
  resolvers: readonly LocalResolver[];
  /**
   * With it, the resolvers serve the relay's Solana corridors too, each with the local Solana key
   * `resolver:<index>`, their inventory read from this Solana JSON-RPC (the harness).
   */
  solana?: { rpcUrl: string };
  rate?: string;
  version?: string;
}

/**
 * Reference resolvers (the `src/clients/resolver` library, in this process) on every EVM corridor of the
 * relay, and with `solana` on its Solana corridors too, their inventory read from the chains on each
 * heartbeat, each shown fresh in `GET /v1/nodes` before this resolves.
 */
export async function startLocalResolvers(relayUrl: string, options: LocalResolversOptions): Promise<ResolverClient[]> {
  const record = await fetchRelayConfig(relayUrl);
  const chains = chainsFromRecord(record).filter((c) => c.kind === "evm" || (options.solana && c.kind === "solana"));
  const corridors = corridorsFromRecord(record).filter((t) => chains.some((c) => c.chainId === t.chainId));
  const clients = options.resolvers.map((r) => {
    const account = anvilAccount(r.index);
    const solanaKey = options.solana ? localSolanaKeypair(`resolver:${r.index}`) : null;
    const live = {
      evm: rpcInventory({ rpcUrl: options.rpcUrl, owner: account.address }),
      solana:
        options.solana && solanaKey
          ? solanaRpcInventory({ rpcUrl: options.solana.rpcUrl, owner: solanaKey.publicKey.toBase58() })
          : null,
    };
    const sources = new Map<number, InventorySource>();
    for (const c of chains) {
      const source = live[c.kind];
      if (source) sources.set(c.chainId, source);
    }
    return new ResolverClient({
      relayUrl,
      account,
      name: r.name,
      version: options.version ?? "reference-local",
      signerType: "keyfile",
      solana: solanaKey ? solanaSigner(solanaKey.secretKey) : null,
      chains,
      corridors,
      pricer: localPricer(r.spreadBps, options.rate),
      // The local chains are the ones anvil and the harness serve; any other chain has no inventory here.
      inventory: inventoryByChain(sources, staticInventory([])),
    });
  });
  const heartbeating = clients.map(
    (c) =>
      new Promise<void>((ok) => {
        const expected = new Set(
          corridors.flatMap((t) => {
            const chain = chains.find((ch) => ch.chainId === t.chainId);
            return chain ? [targetKey(chain, t)] : [];
          }),
        );
        const off = c.on("sent", ({ corridor, frame }) => {
          if (frame.type !== "heartbeat") return;
          expected.delete(corridor);
          if (expected.size === 0) {
            off();
            ok();
          }
        });
      }),
  );
  for (const c of clients) c.start();
  try {
    await Promise.race([
      Promise.all(heartbeating),
      new Promise((_, fail) => setTimeout(() => fail(new Error("no heartbeat from every resolver in 15 s")), 15_000)),
    ]);
    await waitUntil(
      async () => {
        const { nodes } = (await (await fetch(`${relayUrl}/v1/nodes`)).json()) as {
          nodes: { address: string; fresh: boolean }[];
        };
        return clients.every((c) => nodes.some((n) => n.address === c.address && n.fresh));
      },
      { what: "resolvers fresh in GET /v1/nodes", timeoutMs: 10_000, intervalMs: 50 },
    );
  } catch (e) {
    await Promise.all(clients.map((c) => c.stop()));
    throw e;
  }
  return clients;
}
