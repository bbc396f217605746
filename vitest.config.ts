import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { base58 } from "@scure/base";
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from "vitest/config";
import { localKeeperKeys } from "./scripts/lib/evm-deploy";
import { localSolanaKeypair } from "./scripts/lib/solana-harness/accounts";
import { allCorridors } from "./src/chains";
import { localConfig } from "./src/config/local";
import { KEEPER_KEY } from "./test/settlement/accounts";
import { withClosedChains } from "./test/support/closed-chains";
import { withFixtureOracle } from "./test/support/oracle-config";

/** What the settlement project's global setup provides (test/settlement/chain.global.ts). */
type Inject = (key: "chainRpcUrl" | "keeperRpcUrl" | "solanaRpcUrl" | "relaySolanaRpcUrl") => string;

/**
 * A project whose tests run inside workerd with the Worker's bindings, D1 migrated before each file.
 * `chain` adds a chain started by a global setup (anvil in test/settlement/, the LiteSVM harness in
 * test/solana/): its bindings are made from what that setup provides, and its files run one at a time
 * (they share the keeper's account and the chain's funded accounts). Its files are `test/<name>/` unless
 * `files` says which.
 */
function workersProject(
  name: string,
  bindings: Record<string, string>,
  chain?: { setup: string; bindings: (inject: Inject) => Record<string, string> },
  files: { include: string[]; exclude?: string[] } = { include: [`test/${name}/**/*.test.ts`] },
): TestProjectInlineConfiguration {
  return {
    plugins: [
      cloudflareTest(async ({ inject }) => {
        const all = { ...bindings, ...chain?.bindings(inject) };
        return {
          wrangler: { configPath: "./wrangler.toml" },
          miniflare: {
            bindings: {
              TEST_MIGRATIONS: await readD1Migrations("migrations"),
              ADMIN_TOKEN: "test-admin-token",
              // No keeper key unless the project gives one: submissions answer not_leader.
              KEEPER_PRIVATE_KEY: "",
              KEEPER_SOLANA_KEY: "",
              ...all,
              // The oracle polls the fixture server's stand-in sources, never the public ones.
              ORACLE_FIXTURES_URL: inject("oracleFixturesUrl"),
              TEST_CLOSED_RPC_URL: inject("closedRpcUrl"),
              // A chain the project did not start is at a port of the run's own that answers nothing.
              RELAY_CONFIG: withFixtureOracle(
                withClosedChains(all.RELAY_CONFIG, inject("closedRpcUrl")),
                inject("oracleFixturesUrl"),
              ),
            },
          },
        };
      }),
    ],
    test: {
      name,
      include: files.include,
      exclude: [...configDefaults.exclude, ...(files.exclude ?? [])],
      setupFiles: ["test/support/apply-migrations.ts"],
      globalSetup: [
        "test/support/oracle-server.global.ts",
        "test/support/closed-port.global.ts",
        ...(chain ? [chain.setup] : []),
      ],
      isolate: false,
      ...(chain ? { fileParallelism: false, testTimeout: 20_000 } : {}),
    },
  };
}

/**
 * The workers projects' relay: the local configuration with a shorter auction window, so the tests
 * that wait for a window wait less (the auction's rules are unit-tested in test/unit/auction-house.test.ts).
 */
const integrationConfig = { ...localConfig, rfqWindowMs: 1_000, limits: roomyLimits(localConfig.limits) };

/**
 * Limits no test file reaches by accident: every file of a worker shares one client address (`ip:local`)
 * and one isolate. The `limits` project runs the relay at its default limits and tests them.
 */
function roomyLimits(limits: typeof localConfig.limits): typeof localConfig.limits {
  const roomy = 100_000;
  return {
    ...limits,
    quotesPerSecond: roomy,
    quoteBurst: roomy,
    preparesPerSecond: roomy,
    prepareBurst: roomy,
    pricesPerSecond: roomy,
    priceBurst: roomy,
    failedSubmissionsPer10s: roomy,
    newSocketsPerMinute: roomy,
    socketsPerClient: roomy,
    socketsPerCorridor: roomy,
    adminFailuresPerMinute: roomy,
    apiKeyFailuresPerMinute: roomy,
    objectReadsPerSecond: roomy,
    objectReadBurst: roomy,
    submissionsInFlightPerClient: roomy,
    networkFailedSubmissionsPer10s: roomy,
    relayFailedSubmissionsPer10s: roomy,
    limitOrdersPerMinute: roomy,
    networkLimitOrdersPerMinute: roomy,
    relayLimitOrdersPerMinute: roomy,
    // One client (`ip:local`) may hold only its share of the auctions in flight, and a rfq asks the first
    // maxNodesPerRfq of the nodes every earlier file left connected.
    maxAuctionsInFlight: roomy,
    maxNodesPerRfq: roomy,
  };
}

/**
 * The relay of the projects that test records split over databases (test/records/, test/settlement-records/):
 * its EVM corridor's records in the second D1 database (`RECORDS_2`, docs/capacity.md "Records by
 * corridor"), every other corridor's in `DB`.
 */
function withSecondRecords<C extends typeof localConfig>(config: C): C {
  const evm = allCorridors(config).filter((c) => c.chain.kind === "evm");
  // Limit orders are followed in DB with their quotes: off where an EVM corridor's records are elsewhere.
  return { ...config, limitOrders: null, records: [{ binding: "RECORDS_2", corridors: evm.map((c) => c.key) }] };
}

/** The local configuration (limits no test file reaches) with the RPC of its chain of `kind` pointed at a test's chain. */
function onTestChain(
  kind: "evm" | "solana",
  rpcUrl: string,
  config = { ...localConfig, limits: roomyLimits(localConfig.limits) },
) {
  return { ...config, chains: config.chains.map((c) => (c.kind === kind ? { ...c, rpcUrl } : c)) };
}

/**
 * The chain projects' relay charges the configured gas fee (no native prices), so their amounts are
 * exact; the priced fee is tested on anvil in test/settlement/gas-fee.test.ts and on the local stack (e2e).
 */
function withFallbackGasFee(config: typeof localConfig) {
  return { ...config, oracle: { ...config.oracle, natives: [] } };
}

/** A transaction not mined in a second is replaced: the stuck-transaction tests wait that long, not 30 s. */
function withQuickReplacement(config: typeof localConfig) {
  const replacement = { afterSeconds: 1, bumpPercent: 25, maxBumps: 3 };
  return { ...config, chains: config.chains.map((c) => (c.kind === "evm" ? { ...c, replacement } : c)) };
}

/** The settlement projects' chain: anvil behind the keeper's RPC proxy, the keeper signing with `keeperKey`. */
function settlementChain(keeperKey: string, shape: (config: typeof localConfig) => typeof localConfig = (c) => c) {
  return {
    setup: "test/settlement/chain.global.ts",
    bindings: (inject: Inject) => ({
      RELAY_CONFIG: JSON.stringify(
        shape(withFallbackGasFee(withQuickReplacement(onTestChain("evm", inject("keeperRpcUrl"))))),
      ),
      KEEPER_PRIVATE_KEY: keeperKey,
      TEST_CHAIN_RPC_URL: inject("chainRpcUrl"),
      TEST_PROXY_URL: inject("keeperRpcUrl"),
    }),
  };
}

/** The wallet pool's tests: a project of their own, whose keeper's secret holds the local pool's keys. */
const POOL_TESTS = "test/settlement/pool.test.ts";

export default defineConfig({
  test: {
    reporters: ["default", "./test/support/summary-reporter.ts"],
    projects: [
      {
        test: { name: "unit", include: ["test/unit/**/*.test.ts"], environment: "node" },
      },
      workersProject("integration", { RELAY_CONFIG: JSON.stringify(integrationConfig) }),
      // The same relay with its EVM corridor's records in a second database.
      workersProject("records", { RELAY_CONFIG: JSON.stringify(withSecondRecords(integrationConfig)) }),
      // A relay that admits only registered resolvers and requires taker proofs.
      workersProject("integration-strict", {
        RELAY_CONFIG: JSON.stringify({ ...integrationConfig, requireRegistration: true, requireTakerProof: true }),
      }),
      // The relay at its default limits (docs/security.md, "Limits").
      workersProject("limits", { RELAY_CONFIG: JSON.stringify({ ...integrationConfig, limits: localConfig.limits }) }),
      // Settlement against a real chain: the keeper, POST /v1/executions and the indexer.
      workersProject("settlement", {}, settlementChain(KEEPER_KEY), {
        include: ["test/settlement/**/*.test.ts"],
        exclude: [POOL_TESTS],
      }),
      // The same with the keeper's secret holding the local pool's keys, as a local deployment's does
      // (docs/settlement.md, "The wallet pool").
      workersProject("settlement-pool", {}, settlementChain(localKeeperKeys().join(",")), { include: [POOL_TESTS] }),
      // Settlement of a corridor whose records are in a second database.
      workersProject("settlement-records", {}, settlementChain(KEEPER_KEY, withSecondRecords)),
      // Quotes and settlement on Solana against the LiteSVM harness.
      workersProject(
        "solana",
        {},
        {
          setup: "test/solana/chain.global.ts",
          bindings: (inject) => ({
            RELAY_CONFIG: JSON.stringify(
              withFallbackGasFee(onTestChain("solana", inject("relaySolanaRpcUrl"), integrationConfig)),
            ),
            KEEPER_SOLANA_KEY: base58.encode(localSolanaKeypair("keeper").secretKey),
            TEST_SOLANA_RPC_URL: inject("solanaRpcUrl"),
            TEST_SOLANA_PROXY_URL: inject("relaySolanaRpcUrl"),
          }),
        },
      ),
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          environment: "node",
          globalSetup: ["test/e2e/global-setup.ts"],
          // The files share one relay and the resolver keys: run together, their resolver fleets would
          // bid in each other's auctions.
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      // The Worker as `wrangler deploy` builds it: it builds, carries no Node-only module, fits its budget.
      {
        test: { name: "bundle", include: ["test/bundle/**/*.test.ts"], environment: "node", testTimeout: 60_000 },
      },
      {
        test: {
          name: "contracts",
          include: ["test/contracts/**/*.test.ts"],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
