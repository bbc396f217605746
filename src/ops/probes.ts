import { addressKey, costsFor, readContractFeeBps, readHead, readNativeBalance } from "../chains";
import { type ChainConfig, type RelayConfig, recordsDatabases } from "../config";
import { countOpenLimitOrders, settledFillsSinceOver } from "../db";
import type { Env } from "../env";
import { keeperStub, oracleStub } from "../objects";
import type { KeeperRecord } from "../schemas";
import { corridorStatuses } from "./corridor-records";
import { type Probed, within } from "./deadline";
import { type ChainProbes, HEALTH_PART_TIMEOUT_MS, type HealthProbes } from "./health";
import { BOOKS_LIMIT, BOOKS_WINDOW_MS, keeperBooks } from "./keeper-books";

/**
 * Asks every part of the relay at once, each bounded by HEALTH_PART_TIMEOUT_MS (docs/operations.md,
 * "Health"): the keeper object, each chain (from the Worker, as the keeper would reach it: its head, the
 * keeper's balance, the FeeController's bps) and its keeper books in D1, the oracle object (its stored
 * bands; no source is polled), every corridor object, and D1's open limit orders.
 */
export async function probeHealth(env: Env, config: RelayConfig): Promise<HealthProbes> {
  const ms = HEALTH_PART_TIMEOUT_MS;
  const now = Date.now();
  const keeper = within(ms, () => keeperStub(env).status());
  const [keeperStatus, chains, oracle, corridors, openLimitOrders] = await Promise.all([
    keeper,
    Promise.all(
      config.chains.map((chain) => probeChain(recordsDatabases(env, config).all, config, chain, keeper, now)),
    ),
    within(ms, () => oracleStub(env).health()),
    corridorStatuses(env, config, ms),
    within(ms, () => countOpenLimitOrders(env.DB)),
  ]);
  return {
    keeper: keeperStatus,
    chains,
    oracle,
    corridors: corridors.map(({ corridor, status }) => ({ key: corridor.key, status })),
    openLimitOrders,
  };
}

/**
 * One chain's reads, each within the same bound from now: the balance waits for the keeper object's
 * wallet addresses inside its own bound, so the whole still answers in time. Without the addresses
 * (the keeper did not answer, or has no key there) the balance is not read: the keeper's part says why.
 */
async function probeChain(
  dbs: readonly D1Database[],
  config: RelayConfig,
  chain: ChainConfig,
  keeper: Promise<Probed<KeeperRecord>>,
  now: number,
): Promise<ChainProbes> {
  const ms = HEALTH_PART_TIMEOUT_MS;
  const decimals = new Map(chain.tokens.map((t) => [addressKey(t.address), t.decimals]));
  const [head, books, balance, feeBps] = await Promise.all([
    within(ms, (signal) => readHead(chain, signal)),
    within(ms, async () => {
      const since = new Date(now - BOOKS_WINDOW_MS).toISOString();
      const fills = await settledFillsSinceOver(dbs, chain.chainId, since, BOOKS_LIMIT);
      const books = keeperBooks(fills, (t) => decimals.get(addressKey(t)) ?? null, costsFor(chain).nativeDecimals);
      return { ...books, capped: fills.length >= BOOKS_LIMIT };
    }),
    within(ms, async (signal) => {
      const status = await keeper;
      const addresses = status.ok ? status.value.wallets.find((w) => w.chainId === chain.chainId)?.addresses : null;
      return addresses?.length ? readNativeBalance(chain, addresses, signal) : null;
    }),
    within(ms, (signal) => readContractFeeBps(chain, signal) ?? Promise.resolve(null)),
  ]);
  return {
    chainId: chain.chainId,
    name: chain.name,
    head,
    books,
    balance,
    feeBps,
    configuredFeeBps: chain.fee.bps,
    floorFills: config.keeperFloorFills,
  };
}
