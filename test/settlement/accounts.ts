/** The anvil accounts of the settlement tests (anvil's well-known dev keys; they hold nothing of value). */

/** Anvil's first dev account: it deployed the contracts and owns the tokens and the executor. */
export const DEPLOYER_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";

/** Anvil's dev account #9, which the deployment allow-lists as keeper: the relay's local default key. */
export const KEEPER_KEY = "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6";

/** Anvil accounts 1–4 (`nodeKeys` of test/support/ws-client.ts): funded and approved resolvers. */
export const RESOLVER_ACCOUNTS = [1, 2, 3, 4] as const;

/** What each funded account gets of every test token, in base units (a million tokens of 6 decimals). */
export const TOKEN_FUNDING = 1_000_000_000_000n;
