import type { z } from "zod";
import { chainPairs, normaliseAddress } from "../../chains/addresses";
import { corridorKey } from "../../chains/corridor-keys";
import type { SolanaChain } from "../../config/schema";
import { Config } from "../../schemas/config";
import type { TokenInfo } from "./pricing";

export type RelayConfigRecord = z.infer<typeof Config>;

/** What the resolver needs of a chain: how to address its tokens, price them, and whom to approve. */
export interface ChainInfo {
  kind: "evm" | "solana";
  chainId: number;
  name: string;
  /** The contract (EVM) or program (Solana) that settles fills: the spender of the resolver's tokens. */
  executor: string;
  /** EVM chains: the limit-order reactor, which limit rounds' fills are signed for. */
  reactor?: string;
  tokens: TokenInfo[];
  /** The most legs one fill may have (docs/legs.md): more than 1, a bid may fill a part of an rfq; absent, 1. */
  maxLegs?: number;
  /**
   * Solana chains: the published settings the relay builds each quote's swap from (keeper, treasury,
   * token programs, compute budget), so the winner can rebuild it before signing (`checkSignRequest`).
   */
  solana?: SolanaChain;
}

/** A corridor as the resolver connects to it: the token order of its connect URL. */
export interface CorridorTarget {
  chainId: number;
  tokenA: string;
  tokenB: string;
}

/** The relay's configuration record (`GET /v1/config`, record 2.6), validated. */
export async function fetchRelayConfig(relayUrl: string, fetchImpl: typeof fetch = fetch): Promise<RelayConfigRecord> {
  const url = new URL(`${basePath(relayUrl)}/v1/config`, httpOrigin(relayUrl));
  let response: Response;
  try {
    response = await fetchImpl(url);
  } catch (e) {
    throw new Error(`cannot reach the relay at ${url}: ${(e as Error).message}`);
  }
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  return Config.parse(await response.json());
}

export function chainsFromRecord(record: RelayConfigRecord): ChainInfo[] {
  return record.chains.map((c) => ({
    kind: c.kind,
    chainId: c.chainId,
    name: c.name,
    executor: c.executor,
    ...(c.kind === "evm" ? { reactor: c.reactor } : {}),
    tokens: c.tokens.map((t) => ({
      symbol: t.symbol,
      address: t.address,
      decimals: t.decimals,
      minLegSellAmount: t.minLegSellAmount ?? t.minimum,
    })),
    maxLegs: c.maxLegs,
    ...(c.kind === "solana" ? { solana: solanaSettings(c) } : {}),
  }));
}

/** Where a chain's RPC would be: the record does not publish it, and building a swap never reads it. */
export const UNPUBLISHED_RPC = "http://rpc.unpublished.invalid";

type SolanaChainRecord = Extract<RelayConfigRecord["chains"][number], { kind: "solana" }>;

/** A Solana chain of the record in the configuration's shape, which `buildSwapTransaction` takes. */
function solanaSettings(c: SolanaChainRecord): SolanaChain {
  return {
    kind: "solana",
    chainId: c.chainId,
    name: c.name,
    cluster: c.cluster,
    rpcUrl: UNPUBLISHED_RPC,
    program: c.program,
    treasury: c.treasury,
    keeper: c.keeper,
    tokens: c.tokens.map((t) => ({ ...t })),
    maxLegs: c.maxLegs,
    fee: { tokens: [...c.fee.tokens], bps: c.fee.bps },
    computeUnitLimit: c.computeUnitLimit,
    computeUnitPrice: c.computeUnitPrice,
    gasFee: { ...c.gasFee },
    pairs: c.pairs.flatMap(([a, b]) => (a && b ? [[a, b] as [string, string]] : [])),
  };
}

/** Every corridor the relay serves: on EVM each pair of configured tokens, on Solana the configured pairs. */
export function corridorsFromRecord(record: RelayConfigRecord): CorridorTarget[] {
  return record.chains.flatMap((c) =>
    chainPairs(c).map(([tokenA, tokenB]) => ({ chainId: c.chainId, tokenA, tokenB })),
  );
}

/** The canonical corridor key the relay's challenge names, so events can be matched to it. */
export function targetKey(chain: ChainInfo, target: CorridorTarget): string {
  const norm = (t: string) => normaliseAddress(chain.kind, t);
  return corridorKey(target.chainId, norm(target.tokenA), norm(target.tokenB));
}

/** `ws(s)://<relay>/v1/corridors/{chainId}/{tokenA}/{tokenB}/connect`, from an http(s) or ws(s) relay URL. */
export function connectUrl(relayUrl: string, target: CorridorTarget): string {
  const url = new URL(relayUrl);
  const secure = url.protocol === "https:" || url.protocol === "wss:";
  const path = [target.chainId, target.tokenA, target.tokenB].map((p) => encodeURIComponent(String(p))).join("/");
  return `${secure ? "wss" : "ws"}://${url.host}${basePath(relayUrl)}/v1/corridors/${path}/connect`;
}

function httpOrigin(relayUrl: string): string {
  const url = new URL(relayUrl);
  const secure = url.protocol === "https:" || url.protocol === "wss:";
  return `${secure ? "https" : "http"}://${url.host}`;
}

/** A relay mounted under a path prefix keeps it. */
function basePath(relayUrl: string): string {
  return new URL(relayUrl).pathname.replace(/\/+$/, "");
}
