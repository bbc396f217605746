import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";
import { localConfig } from "./src/config/local";
import { withFixtureOracle } from "./test/integration/oracle-config";

/** A project whose tests run inside workerd with the Worker's bindings, D1 migrated before each file. */
function workersProject(name: string, bindings: Record<string, string>): TestProjectInlineConfiguration {
  return {
    plugins: [
      cloudflareTest(async ({ inject }) => ({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: await readD1Migrations("migrations"),
            ADMIN_TOKEN: "test-admin-token",
            ...bindings,
            // The oracle polls the fixture server's stand-in sources, never the public ones.
            ORACLE_FIXTURES_URL: inject("oracleFixturesUrl"),
            RELAY_CONFIG: withFixtureOracle(bindings.RELAY_CONFIG, inject("oracleFixturesUrl")),
          },
        },
      })),
    ],
    test: {
      name,
      include: [`test/${name}/**/*.test.ts`],
      setupFiles: ["test/integration/apply-migrations.ts"],
      globalSetup: ["test/integration/oracle-server.global.ts"],
    },
  };
}

export default defineConfig({
  test: {
    reporters: ["default", "./test/support/summary-reporter.ts"],
    projects: [
      {
        test: { name: "unit", include: ["test/unit/**/*.test.ts"], environment: "node" },
      },
      workersProject("integration", {}),
      // A relay that admits only registered resolvers and requires taker proofs.
      workersProject("integration-strict", {
        RELAY_CONFIG: JSON.stringify({ ...localConfig, requireRegistration: true, requireTakerProof: true }),
      }),
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          environment: "node",
          globalSetup: ["test/e2e/global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
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
