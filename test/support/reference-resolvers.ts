import type { HDAccount, LocalAccount } from "viem";
import { localSolanaKeypair } from "../../scripts/lib/solana-harness/accounts";
import type { Latency } from "../../src/clients/resolver/bidder";
import { ResolverClient } from "../../src/clients/resolver/client";
import { type InventorySource, staticInventory } from "../../src/clients/resolver/inventory";
import { anvilAccount, solanaSigner } from "../../src/clients/resolver/keys";
import { fixedRatePricer, type Pricer, parseDecimal, type Rational } from "../../src/clients/resolver/pricing";
import {
  type ChainInfo,
  type CorridorTarget,
  chainsFromRecord,
  corridorsFromRecord,
  fetchRelayConfig,
} from "../../src/clients/resolver/relay-config";

export interface ResolverFleetOptions {
  count: number;
  /** Reply delay of every resolver. */
  latencyMs?: Latency;
  /** USDC per cNGN; each resolver shades it a little so the auction has a ranking. */
  rate?: string;
  /** Which corridors to serve; default every EVM corridor of the relay (and its Solana ones with `solana`). */
  corridors?: (targets: CorridorTarget[]) => CorridorTarget[];
  /** First anvil account to use (1 = the first after the deployer). */
  firstIndex?: number;
  /**
   * Serve the Solana corridors too, resolver N (its anvil index) with the local Solana key `resolver:N`,
   * which the harness funds for N from 1 to 4 (scripts/lib/solana-harness/accounts.ts).
   */
  solana?: boolean;
  /** The node's account from its anvil one; default the anvil account itself. */
  account?: (anvil: HDAccount) => LocalAccount;
  /**
   * Resolver i's own pricer or inventory in place of the fleet's (its rate, i bps under the base, and
   * 10^18 of every token), e.g. a benchmark's resolvers that bid parts (bench/part-bidders.ts).
   */
  own?: (i: number, rate: Rational, chains: readonly ChainInfo[]) => { pricer?: Pricer; inventory?: InventorySource };
}

/**
 * Reference resolvers (the real `src/clients/resolver` client over real sockets), authenticated and
 * heartbeating on the relay's EVM corridors (and Solana ones with `solana`) before this resolves.
 */
export async function startResolverFleet(relayUrl: string, options: ResolverFleetOptions): Promise<ResolverClient[]> {
  const record = await fetchRelayConfig(relayUrl);
  const chains = chainsFromRecord(record).filter((c) => c.kind === "evm" || options.solana);
  const all = corridorsFromRecord(record).filter((t) => chains.some((c) => c.chainId === t.chainId));
  const corridors = options.corridors ? options.corridors(all) : all;
  const inventory = staticInventory(
    chains.flatMap((c) =>
      c.tokens.map((t) => ({
        chainId: c.chainId,
        token: t.address,
        balance: (10n ** 18n).toString(),
        allowance: (10n ** 18n).toString(),
      })),
    ),
  );
  const base = parseDecimal(options.rate ?? "0.000633");
  const clients = Array.from({ length: options.count }, (_, i) => {
    // Resolver i quotes i bps under the base rate.
    const rate = { num: base.num * BigInt(10_000 - i), den: base.den * 10_000n };
    const index = (options.firstIndex ?? 1) + i;
    const anvil = anvilAccount(index);
    const own = options.own?.(i, rate, chains) ?? {};
    return new ResolverClient({
      relayUrl,
      account: options.account?.(anvil) ?? anvil,
      solana: options.solana ? solanaSigner(localSolanaKeypair(`resolver:${index}`).secretKey) : null,
      name: `ref-${i + 1}`,
      version: "bench",
      chains,
      corridors,
      pricer: own.pricer ?? fixedRatePricer({ rate, sellSymbol: "cNGN" }),
      inventory: own.inventory ?? inventory,
      latencyMs: options.latencyMs ?? 0,
    });
  });
  // Ready once every client has sent its first heartbeat on every corridor.
  const heartbeating = clients.map(
    (c) =>
      new Promise<void>((resolve) => {
        const seen = new Set<string>();
        const off = c.on("sent", ({ corridor, frame }) => {
          if (frame.type !== "heartbeat") return;
          seen.add(corridor);
          if (seen.size === corridors.length) {
            off();
            resolve();
          }
        });
      }),
  );
  for (const c of clients) c.start();
  await Promise.all(heartbeating);
  await waitForFresh(
    relayUrl,
    clients.map((c) => c.address),
  );
  return clients;
}

async function waitForFresh(relayUrl: string, addresses: string[]): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const { nodes } = (await (await fetch(`${relayUrl}/v1/nodes`)).json()) as {
      nodes: { address: string; fresh: boolean }[];
    };
    if (addresses.every((a) => nodes.some((n) => n.address === a && n.fresh))) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the resolvers did not show as fresh within 10 s");
}

export async function stopFleet(clients: readonly ResolverClient[]): Promise<void> {
  await Promise.all(clients.map((c) => c.stop()));
}
