export {};

declare global {
  namespace Cloudflare {
    interface Env {
      /** The `solana` project's LiteSVM harness, for the tests' own reads and writes (chain.global.ts). */
      TEST_SOLANA_RPC_URL: string;
      /** The relay's RPC proxy in front of it; `/__fault`, `/__sent` and `/__advance` drive and watch it. */
      TEST_SOLANA_PROXY_URL: string;
    }
  }
}
