import { parseArgs } from "node:util";
import { type Address, type Hex, parseUnits } from "viem";
import { type InventoryEntry, SIGNER_TYPES, type SignerType } from "../../protocol/node-frames";
import type { Latency } from "./bidder";
import { type InventorySource, inventoryByChain, rpcInventory, staticInventory } from "./inventory";
import { LEVELS_EVERY_MS } from "./ladder";
import { bandSpreadPricer, fixedRatePricer, type Pricer, parseDecimal, type Rational, sameToken } from "./pricing";
import { type ChainInfo, type CorridorTarget, corridorsFromRecord, type RelayConfigRecord } from "./relay-config";
import { solanaRpcInventory } from "./solana-inventory";

/** What `npm run resolver` was asked for, before anything touches the network. */
export interface CliOptions {
  relayUrl: string;
  /** From `RESOLVER_KEY`; null means anvil's dev account `index`. */
  privateKey: Hex | null;
  /** Anvil's dev account to use; null means the first spare one not connected yet (`pickSpareIndex`). */
  index: number | null;
  name: string | null;
  region: string | null;
  signerType: SignerType;
  corridors: string[];
  pricing: { kind: "rate"; rate: Rational; sellSymbol: string | null } | { kind: "spread"; spreadBps: number };
  latencyMs: Latency;
  declineRate: number;
  /** How often the node sends its price ladders; 0 sends none (docs/reference-resolver.md, "Price ladders"). */
  levelsEveryMs: number;
  /** Human-unit amounts: `all` for every token, `bySymbol` overriding it. */
  inventory: { all: string; bySymbol: Record<string, string> };
  rpc: { chainId: number | null; url: string }[];
  /** A keypair file path (`--solana-key`) or its contents (`RESOLVER_SOLANA_KEY`). */
  solanaKey: { path: string } | { text: string } | null;
  help: boolean;
}

/** `--signer-type`: who holds the node's key (docs/resolver-protocol.md, "Authentication"). */
function signerType(value: string): SignerType {
  const known = SIGNER_TYPES.find((t) => t === value);
  if (!known) throw new CliError(`--signer-type must be one of ${SIGNER_TYPES.join(", ")}`);
  return known;
}

export class CliError extends Error {
  override readonly name = "CliError";
}

export const DEFAULT_RELAY_URL = "http://127.0.0.1:8787";
/** What the local stack funds each resolver with (1,000,000 of each token), so the default claim is true there. */
export const DEFAULT_INVENTORY = "1000000";

/** Anvil's dev accounts the local stack funds as resolvers but does not run itself (docs/local-stack.md). */
export const SPARE_RESOLVER_INDEXES = [3, 4] as const;

/**
 * The first spare anvil account whose address is not among the connected nodes, so a second resolver
 * does not take over the socket of one already running; null when every spare is connected.
 */
export function pickSpareIndex(connected: readonly string[], addressOf: (index: number) => string): number | null {
  const taken = new Set(connected.map((a) => a.toLowerCase()));
  return SPARE_RESOLVER_INDEXES.find((i) => !taken.has(addressOf(i).toLowerCase())) ?? null;
}
export const DEFAULT_SPREAD_BPS = 20;

export const USAGE = `npm run resolver -- [options]

  --relay URL            relay base URL (env RELAY_URL; default ${DEFAULT_RELAY_URL})
  --index N              anvil dev account N as the node key (default: the first spare, 3 or 4, not
                         connected yet); env RESOLVER_KEY overrides
  --name NAME            node name (default resolver-N)
  --region REGION        region shown in the node list
  --signer-type TYPE     signer type shown in the node list (default keyfile)
  --corridor C:A:B       serve chain C's tokens A and B (symbols or addresses); repeatable;
                         default every corridor the relay serves
  --rate R               fixed rate: R buy-token per sell-token, human units (e.g. 0.000633)
  --rate-sell SYMBOL     the rate is for selling SYMBOL; the reverse direction gets 1/R
  --spread-bps N         price N bps under the oracle band's mid (default ${DEFAULT_SPREAD_BPS} when --rate is absent)
  --latency-ms MS|LO-HI  artificial reply delay, fixed or uniform in a range (default 0)
  --decline-rate P       decline this share of rfqs at random, 0 to 1 (default 0)
  --levels-every MS      send the price ladders every MS milliseconds, 0 for none (default ${LEVELS_EVERY_MS})
  --inventory AMOUNT     reported balance and allowance of every token, human units (default ${DEFAULT_INVENTORY})
  --inventory SYM=AMOUNT the same for one token symbol; repeatable
  --rpc [CHAIN=]URL      read balances (and EVM allowances) from this chain's RPC on every heartbeat
                         instead; without CHAIN=, the relay's first EVM chain; a Solana chain's are
                         the Solana key's token accounts; repeatable
  --solana-key PATH      Solana keypair file: proved at auth, bids and signs swaps on Solana corridors
                         (env RESOLVER_SOLANA_KEY: its contents, or a base58 secret key)
  --help                 this text`;

/** Flags win over the environment; every value is checked here so a typo fails before connecting. */
export function parseCliOptions(argv: string[], env: Record<string, string | undefined>): CliOptions {
  let values: ReturnType<typeof parse>["values"];
  try {
    values = parse(argv).values;
  } catch (e) {
    throw new CliError((e as Error).message);
  }
  const index = values.index === undefined ? null : integer(values.index, "--index", 0);
  if (values.rate !== undefined && values["spread-bps"] !== undefined) {
    throw new CliError("--rate and --spread-bps are alternatives; give one");
  }
  if (values["rate-sell"] !== undefined && values.rate === undefined) throw new CliError("--rate-sell needs --rate");
  const privateKey = env.RESOLVER_KEY?.trim() || null;
  if (privateKey !== null && !/^0x[0-9a-fA-F]{64}$/.test(privateKey)) {
    throw new CliError("RESOLVER_KEY must be a 0x-prefixed 32-byte hex private key");
  }
  const solanaText = env.RESOLVER_SOLANA_KEY?.trim();
  return {
    relayUrl: url(values.relay ?? env.RELAY_URL ?? DEFAULT_RELAY_URL, "--relay"),
    privateKey: privateKey as Hex | null,
    index,
    name: values.name ?? null,
    region: values.region ?? null,
    signerType: signerType(values["signer-type"] ?? "keyfile"),
    corridors: values.corridor ?? [],
    pricing:
      values.rate !== undefined
        ? { kind: "rate", rate: rate(values.rate), sellSymbol: values["rate-sell"] ?? null }
        : { kind: "spread", spreadBps: integer(values["spread-bps"] ?? String(DEFAULT_SPREAD_BPS), "--spread-bps", 0) },
    latencyMs: latency(values["latency-ms"] ?? "0"),
    declineRate: share(values["decline-rate"] ?? "0"),
    levelsEveryMs: integer(values["levels-every"] ?? String(LEVELS_EVERY_MS), "--levels-every", 0),
    inventory: inventory(values.inventory ?? []),
    rpc: (values.rpc ?? []).map(rpc),
    solanaKey: values["solana-key"] ? { path: values["solana-key"] } : solanaText ? { text: solanaText } : null,
    help: values.help ?? false,
  };
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      relay: { type: "string" },
      index: { type: "string" },
      name: { type: "string" },
      region: { type: "string" },
      "signer-type": { type: "string" },
      corridor: { type: "string", multiple: true },
      rate: { type: "string" },
      "rate-sell": { type: "string" },
      "spread-bps": { type: "string" },
      "latency-ms": { type: "string" },
      "decline-rate": { type: "string" },
      "levels-every": { type: "string" },
      inventory: { type: "string", multiple: true },
      rpc: { type: "string", multiple: true },
      "solana-key": { type: "string" },
      help: { type: "boolean" },
    },
  });
}

function integer(text: string, flag: string, min: number): number {
  if (!/^\d+$/.test(text) || Number(text) < min) throw new CliError(`${flag} must be a whole number ≥ ${min}`);
  return Number(text);
}

function url(text: string, flag: string): string {
  try {
    return new URL(text).toString().replace(/\/$/, "");
  } catch {
    throw new CliError(`${flag} must be a URL`);
  }
}

function rate(text: string): Rational {
  try {
    const r = parseDecimal(text);
    if (r.num > 0n) return r;
  } catch {
    // reported below, with the flag's name
  }
  throw new CliError("--rate must be a positive decimal number, e.g. 0.000633");
}

function latency(text: string): Latency {
  const range = /^(\d+)-(\d+)$/.exec(text);
  if (range) {
    const [min, max] = [Number(range[1]), Number(range[2])];
    if (max < min) throw new CliError("--latency-ms range must run low to high");
    return { min, max };
  }
  return integer(text, "--latency-ms", 0);
}

function share(text: string): number {
  const p = Number(text);
  if (text.trim() === "" || !(p >= 0 && p <= 1)) throw new CliError("--decline-rate must be between 0 and 1");
  return p;
}

function inventory(specs: string[]): CliOptions["inventory"] {
  const out: CliOptions["inventory"] = { all: DEFAULT_INVENTORY, bySymbol: {} };
  for (const spec of specs) {
    const [symbol, amount] = spec.includes("=") ? spec.split("=", 2) : [null, spec];
    if (!amount || !/^\d+(\.\d+)?$/.test(amount)) throw new CliError(`--inventory ${spec}: not an amount`);
    if (symbol === null) out.all = amount;
    else if (symbol) out.bySymbol[symbol.toLowerCase()] = amount;
    else throw new CliError(`--inventory ${spec}: no token symbol`);
  }
  return out;
}

function rpc(spec: string): CliOptions["rpc"][number] {
  const match = /^(\d+)=(.+)$/.exec(spec);
  return match
    ? { chainId: Number(match[1]), url: url(match[2] ?? "", "--rpc") }
    : { chainId: null, url: url(spec, "--rpc") };
}

/** `--corridor` specs resolved against the relay's chains; every served corridor when none are given. */
export function resolveCorridors(specs: string[], record: RelayConfigRecord, chains: ChainInfo[]): CorridorTarget[] {
  if (specs.length === 0) return corridorsFromRecord(record);
  return specs.map((spec) => {
    const [chainText, a, b, ...rest] = spec.split(":");
    const chain = chains.find((c) => String(c.chainId) === chainText);
    if (!chain || !a || !b || rest.length)
      throw new CliError(`--corridor ${spec}: expected CHAIN:TOKEN:TOKEN on a relay chain`);
    const token = (t: string) => {
      const found = chain.tokens.find((x) => x.symbol.toLowerCase() === t.toLowerCase() || sameToken(x.address, t));
      if (!found) throw new CliError(`--corridor ${spec}: chain ${chain.chainId} has no token ${t}`);
      return found.address;
    };
    return { chainId: chain.chainId, tokenA: token(a), tokenB: token(b) };
  });
}

export function buildPricer(pricing: CliOptions["pricing"]): Pricer {
  return pricing.kind === "rate"
    ? fixedRatePricer({ rate: pricing.rate, sellSymbol: pricing.sellSymbol })
    : bandSpreadPricer({ spreadBps: pricing.spreadBps });
}

/**
 * Static inventory for every token of the served chains (balance and allowance alike), and live reads
 * on the chains given an RPC: on EVM of `owner`, on Solana of `solanaOwner` (the node's Solana key).
 */
export function buildInventory(
  options: Pick<CliOptions, "inventory" | "rpc">,
  record: RelayConfigRecord,
  chains: ChainInfo[],
  owner: Address,
  solanaOwner: string | null = null,
): InventorySource {
  const entries: InventoryEntry[] = chains.flatMap((chain) =>
    chain.tokens.map((t) => {
      const amount = parseUnits(
        options.inventory.bySymbol[t.symbol.toLowerCase()] ?? options.inventory.all,
        t.decimals,
      );
      return { chainId: chain.chainId, token: t.address, balance: amount.toString(), allowance: amount.toString() };
    }),
  );
  const live = new Map<number, InventorySource>();
  for (const { chainId, url } of options.rpc) {
    const id = chainId ?? record.chainId;
    const chain = chains.find((c) => c.chainId === id);
    if (!chain) throw new CliError(`--rpc: the relay has no chain ${id}`);
    if (chain.kind === "evm") live.set(id, rpcInventory({ rpcUrl: url, owner }));
    else if (solanaOwner) live.set(id, solanaRpcInventory({ rpcUrl: url, owner: solanaOwner }));
    else
      throw new CliError(
        `--rpc ${id}=…: Solana inventory is the Solana key's; give RESOLVER_SOLANA_KEY or --solana-key`,
      );
  }
  return inventoryByChain(live, staticInventory(entries));
}
