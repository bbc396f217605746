import type { D1Migration } from "cloudflare:test";
import type { Env as RelayEnv } from "../../src/env";

declare global {
  namespace Cloudflare {
    interface Env extends RelayEnv {
      TEST_MIGRATIONS: D1Migration[];
      /** Base URL of the stand-in rate sources (oracle-server.global.ts). */
      ORACLE_FIXTURES_URL: string;
      /** The run's port that answers nothing, where every chain of the project is (closed-port.global.ts). */
      TEST_CLOSED_RPC_URL: string;
    }
  }
}
