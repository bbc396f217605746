export {};

declare global {
  namespace Cloudflare {
    interface Env {
      /** The `solana` project's LiteSVM harness, for the tests' own reads and writes (chain.global.ts). */
      TEST_SOLANA_RPC_URL: string;
    }
  }
}
