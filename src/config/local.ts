import { publicNativeSources, publicRateSources } from "../oracle";
import { Limits } from "../schemas";
import type { RelayConfig } from "./schema";

/**
 * The embedded default: the local stack of `npm start`, anvil on 8545 and the LiteSVM harness on 8899.
 *
 * The EVM addresses are where anvil's first dev account deploys its first seven contracts, in the order
 * Permit2, cNGN, USDC, validation, fee controller, executor, reactor (`scripts/deploy` keeps that order).
 * The Solana addresses are derived from fixed seeds (scripts/lib/solana-harness/accounts.ts, checked by
 * test/unit/solana-accounts.test.ts). None of them holds value.
 */
const SPL_TOKEN = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
const LOCAL_USDC_MINT = "5rjTgohA7ymupd46E44VKtGtBFoMmC2rMYkVgDZzy7UK";
const LOCAL_CNGN_MINT = "J5sDF89kt7UFKLm5ytgUg75SReeQdugmihXZWMZcrVnG";

/**
 * The local stack's own rate source (scripts/lib/local-rates.ts, started by `npm start`): the
 * `open-er-api` format on loopback, so the local relay has a band with no internet.
 */
export const LOCAL_RATE_SOURCE = {
  name: "local",
  adapter: "open-er-api",
  url: "http://127.0.0.1:8790/v6/latest/USD",
} as const;

/**
 * The same server's native prices, one path per native asset in the same format (`base_code` the native
 * asset, `rates.USD` its dollar price), for the gas fee offline (docs/oracle.md, "Native prices").
 */
export const LOCAL_NATIVE_SOURCES = [
  { name: "local-eth", adapter: "open-er-api", url: "http://127.0.0.1:8790/v6/latest/ETH", base: "ETH", quote: "USD" },
  { name: "local-sol", adapter: "open-er-api", url: "http://127.0.0.1:8790/v6/latest/SOL", base: "SOL", quote: "USD" },
] as const;

export const localConfig: RelayConfig = {
  chains: [
    {
      kind: "evm",
      chainId: 31337,
      name: "anvil",
      rpcUrl: "http://127.0.0.1:8545",
      permit2: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      validation: "0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9",
      feeController: "0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9",
      executor: "0x5FC8d32690cc91D4c39d9d3abcBD16989F875707",
      reactor: "0x0165878A594ca255338adfa4d48449f69242Eb8F",
      tokens: [
        {
          symbol: "cNGN",
          address: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
          decimals: 6,
          minimum: "1000000000",
          minLegSellAmount: null,
        },
        {
          symbol: "USDC",
          address: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
          decimals: 6,
          minimum: "1000000",
          minLegSellAmount: null,
        },
      ],
      // The most legs a fill may have, the kind's bound (docs/legs.md): each part at least the token's minimum.
      maxLegs: 4,
      gasFee: {
        fixed: "50000",
        token: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
        units: { rfq: 195_000, limit: 200_000, permit: 90_000 },
      },
      fee: { bps: 10 },
      finalityConfirmations: 2,
      replacement: { afterSeconds: 30, bumpPercent: 25, maxBumps: 3 },
    },
    {
      kind: "solana",
      chainId: 103,
      name: "solana-local",
      cluster: "devnet",
      rpcUrl: "http://127.0.0.1:8899",
      program: "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr",
      treasury: "7uGUG3GVhASTBU6DrLPJdHQqHm5GBcm86N78UyepkPbr",
      keeper: "7VnpjTYx5z8ByXAYGysz8q55JndTBQ8ftY6HGzZydiDs",
      tokens: [
        {
          symbol: "USDC",
          address: LOCAL_USDC_MINT,
          tokenProgram: SPL_TOKEN,
          decimals: 6,
          minimum: "1000000",
          minLegSellAmount: null,
        },
        {
          symbol: "cNGN",
          address: LOCAL_CNGN_MINT,
          tokenProgram: SPL_TOKEN,
          decimals: 6,
          minimum: "1000000000",
          minLegSellAmount: null,
        },
      ],
      maxLegs: 2,
      fee: { tokens: [LOCAL_USDC_MINT], bps: 10 },
      computeUnitLimit: 200_000,
      computeUnitPrice: "1000",
      gasFee: { fixed: "5000", token: LOCAL_USDC_MINT },
      pairs: [[LOCAL_USDC_MINT, LOCAL_CNGN_MINT]],
    },
  ],
  rfqWindowMs: 1500,
  requireTakerProof: false,
  requireRegistration: false,
  maxOutstandingRfqs: 3,
  quoteTtlSeconds: 30,
  bandGuardBps: 300,
  // Per-client limits at their defaults (docs/security.md, "Limits").
  limits: Limits.parse({}),
  // Limit orders (docs/limit-orders.md): 5 minutes to 30 days, at most 20 open per taker.
  limitOrders: { minExpirySeconds: 300, maxExpirySeconds: 2_592_000, maxOpenPerTaker: 20 },
  // Ended quotes leave D1 for the archive after these (docs/operations.md, "Retention"): the defaults.
  retention: { unfilledHours: 3, unfilledDays: 7, filledDays: 400 },
  // The health check calls a chain degraded once the keeper's balance there pays for fewer fills.
  keeperFloorFills: 20,
  // Every corridor's records in D1 `DB` (docs/capacity.md, "Records by corridor").
  records: [],
  // The local tokens stand for real ones, so their band comes from the real public NGN/USD sources, and
  // from the local stack's own source when offline; the same goes for the prices of ETH and SOL, the
  // native tokens of the local chains.
  oracle: {
    sources: [
      ...[...publicRateSources, LOCAL_RATE_SOURCE].map((s) => ({ ...s, base: "USD", quote: "NGN" })),
      ...publicNativeSources("ETH"),
      ...publicNativeSources("SOL"),
      ...LOCAL_NATIVE_SOURCES,
    ],
    timeoutMs: 3_000,
    maxAgeSeconds: 60,
    outlierBps: 1_000,
    corridors: [
      { chainId: 31337, base: "USDC", quote: "cNGN", baseAsset: "USD", quoteAsset: "NGN" },
      { chainId: 103, base: "USDC", quote: "cNGN", baseAsset: "USD", quoteAsset: "NGN" },
    ],
    natives: [
      { chainId: 31337, asset: "ETH" },
      { chainId: 103, asset: "SOL" },
    ],
  },
};
