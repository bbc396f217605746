import { rm } from "node:fs/promises";
import { createPublicClient, http } from "viem";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { chaosEvmTakers, chaosSolanaTakers } from "../../scripts/lib/chaos/accounts";
import { type CrashableOptions, CrashableRelay } from "../../scripts/lib/chaos/crashes";
import { type HeldBroadcasts, holdBroadcasts } from "../../scripts/lib/chaos/held-broadcasts";
import { chaosMarkets } from "../../scripts/lib/chaos/markets";
import { seededRandom } from "../../scripts/lib/chaos/options";
import { runChaos } from "../../scripts/lib/chaos/run";
import { chaosRelayOptions, chaosResolvers } from "../../scripts/lib/chaos/stack";
import { prepareLocalChain } from "../../scripts/lib/local-stack";
import type { ResolverClient } from "../../src/clients/resolver/client";
import { fetchRelayConfig } from "../../src/clients/resolver/relay-config";

/**
 * `npm run chaos` in short (docs/operations.md, "Deploys and crashes"): an EVM and a Solana taker swap back
 * to back for 20 s through a relay of this file's own on the e2e chains (so killing it leaves the other
 * files' relay alone), killed with SIGKILL once while the keeper waits on a broadcast it has stored and D1
 * has not heard of, and started again on its state. Every answer must then agree with the relay and the
 * chains: no answer lost, no fill doubled, no execution left unresolved, no balance off, no retry 429'd.
 */

const rpcUrl = inject("rpcUrl");
const solanaRpcUrl = inject("solanaRpcUrl");
const [evmTaker] = chaosEvmTakers(1);
let options: CrashableOptions | null = null;
let relay: CrashableRelay | null = null;
let broadcasts: HeldBroadcasts[] = [];
let resolvers: ResolverClient[] = [];

beforeAll(async () => {
  await prepareLocalChain(rpcUrl, { takers: evmTaker ? [evmTaker.address] : [], resolvers: [] });
  broadcasts = [await holdBroadcasts(rpcUrl), await holdBroadcasts(solanaRpcUrl)];
  const [evmRpc, solanaRpc] = broadcasts.map((b) => b.url) as [string, string];
  // A keeper key of its own: the other files' relay signs with anvil's #9 on the same chain.
  options = await chaosRelayOptions({ rpcUrl: evmRpc, solanaRpcUrl: solanaRpc, wallets: 1, firstWallet: 1 });
  relay = await CrashableRelay.start(options);
  resolvers = await chaosResolvers(relay.url, rpcUrl, solanaRpcUrl);
});

afterAll(async () => {
  await Promise.all(resolvers.map((r) => r.stop()));
  await relay?.stop();
  await Promise.all(broadcasts.map((b) => b.stop()));
  if (options) await rm(options.persistTo, { recursive: true, force: true });
});

describe("a relay crashed mid-submission", () => {
  it("loses no answer, doubles no fill and refuses no retry, as the chains show", { timeout: 120_000 }, async () => {
    if (!relay || !evmTaker) throw new Error("the relay did not start");
    const record = await fetchRelayConfig(relay.url);
    const client = createPublicClient({ transport: http(rpcUrl), pollingInterval: 250 });
    const markets = chaosMarkets(record, client, solanaRpcUrl);
    if (!markets.solana) throw new Error("the relay serves no Solana chain");
    const result = await runChaos({
      relay,
      limits: record.limits,
      chains: markets.chains,
      evm: { takers: [{ account: evmTaker, client }], pair: markets.evm },
      solana: { takers: chaosSolanaTakers(1), pair: markets.solana },
      limitOrder: null,
      durationMs: 20_000,
      crashes: [{ at: 6_000, aim: "broadcast" }],
      broadcasts,
      catchUpMs: 20_000,
      random: seededRandom(1),
    });
    const { counts, problems } = result.verdict;
    expect(problems).toEqual([]);
    expect(result.crashes).toEqual([expect.objectContaining({ aim: "broadcast", struck: true })]);
    expect(counts).toMatchObject({
      crashes: 1,
      lostAnswers: 0,
      keysAnsweredOtherwise: 0,
      doubledFills: 0,
      fillsNotSettled: 0,
      unresolved: 0,
      balanceMismatches: 0,
      retriesRefusedForRate: 0,
      submissionsRefusedForRate: 0,
      serverErrors: 0,
    });
    expect(counts.swaps).toBeGreaterThanOrEqual(10);
    // The struck submission was answered after the restart, by a retry with its key.
    const retried = result.evidence.ledger.swaps.filter((s) => s.answer && s.attempts.length > 1);
    expect(retried.length).toBeGreaterThanOrEqual(1);
  });
});
