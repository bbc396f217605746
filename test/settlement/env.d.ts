export {};

declare global {
  namespace Cloudflare {
    interface Env {
      /** The settlement project's anvil, for the tests' own reads and writes (chain.global.ts). */
      TEST_CHAIN_RPC_URL: string;
      /** The keeper's RPC proxy in front of it; `/__fault` and `/__sent` drive and watch it. */
      TEST_PROXY_URL: string;
    }
  }
}
