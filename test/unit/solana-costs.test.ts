import { base64 } from "@scure/base";
import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import { Connection, type Keypair, PublicKey, VersionedMessage } from "@solana/web3.js";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { localSolanaKeypair } from "../../scripts/lib/solana-harness/accounts";
import { type SolanaHarness, startSolanaHarness } from "../../scripts/lib/solana-harness/server";
import type { FillToPrice } from "../../src/chains/costs";
import { INPUTS_EVERY_MS, solanaChainCosts } from "../../src/chains/solana/costs";
import { sendSwap, signAsFeePayer, swapReceipt } from "../../src/chains/solana/settler-rpc";
import { signRequest, withSignature } from "../../src/chains/solana/swap-signatures";
import { buildSwapTransaction } from "../../src/chains/solana/swap-transaction";
import type { SolanaChain } from "../../src/config/schema";
import { addSignatures, localSolana, mintOf, signMessageOf, swapQuote } from "../support/solana-swap";

const USDC = mintOf(localSolana, "USDC");
const CNGN = mintOf(localSolana, "cNGN");
const ata = (owner: string, mint: string) =>
  getAssociatedTokenAddressSync(new PublicKey(mint), new PublicKey(owner), true).toBase58();

/** 3 signatures of 5,000 lamports and ceil(200,000 CU × 1,000 µlamports / 10^6) = 200 of priority. */
const BASE = 3n * 5_000n + 200n;
const RENT = 2_039_280n;

const fillTo = (recipient: string, sellToken = CNGN, buyToken = USDC): FillToPrice => ({
  kind: "rfq",
  units: null,
  sellToken,
  buyToken,
  recipient,
});

describe("solanaChainCosts against a fake RPC", () => {
  const recipient = localSolanaKeypair("taker:5").publicKey.toBase58();
  const chain: SolanaChain = { ...localSolana, rpcUrl: "http://rpc.test/" };
  let calls: { method: string; params: unknown[] }[] = [];
  /** Accounts the fake chain has; every other account is missing. */
  let existing = new Set<string>();
  let down = false;
  /** A chain's costs with a memory of existing accounts of their own (one per configuration object). */
  const costsOn = () => solanaChainCosts({ ...chain });

  const answer = (method: string, params: unknown[]): unknown => {
    switch (method) {
      case "getLatestBlockhash":
        return {
          context: { slot: 1 },
          value: { blockhash: "11111111111111111111111111111111", lastValidBlockHeight: 151 },
        };
      case "getFeeForMessage":
        return { context: { slot: 1 }, value: 5_000 };
      case "getMinimumBalanceForRentExemption":
        return Number(RENT);
      case "getMultipleAccounts":
        return {
          context: { slot: 1 },
          value: (params[0] as string[]).map((a) =>
            existing.has(a) ? { lamports: 1, owner: "x", data: ["", "base64"], executable: false } : null,
          ),
        };
      default:
        throw new Error(`unexpected ${method}`);
    }
  };

  beforeAll(() => {
    vi.stubGlobal("fetch", async (_url: string, init: RequestInit) => {
      const { id, method, params } = JSON.parse(String(init.body)) as { id: number; method: string; params: unknown[] };
      calls.push({ method, params });
      if (down) return new Response("unavailable", { status: 503 });
      return Response.json({ jsonrpc: "2.0", id, result: answer(method, params) });
    });
  });
  afterAll(() => vi.unstubAllGlobals());
  afterEach(() => {
    calls = [];
    existing = new Set();
    down = false;
  });
  const called = (method: string) => calls.filter((c) => c.method === method);
  const everyDestination = () => {
    existing = new Set([ata(recipient, USDC), ata(chain.treasury, USDC), ata(chain.keeper, USDC)]);
  };

  it("prices nothing before its inputs are read, then the signatures, the compute and each account created", async () => {
    const costs = costsOn();
    expect(costs.nativeDecimals).toBe(9);
    expect(await costs.fillCost(fillTo(recipient), 1_000)).toBeNull();
    expect(calls).toEqual([]);

    await costs.keepFresh(1_000);
    // The signature's price is asked of a message the keeper alone signs, with no instruction.
    const message = VersionedMessage.deserialize(base64.decode(String(called("getFeeForMessage")[0]?.params[0])));
    expect(message.staticAccountKeys.map((k) => k.toBase58())).toEqual([chain.keeper]);
    expect(message.compiledInstructions).toEqual([]);
    expect(called("getMinimumBalanceForRentExemption")[0]?.params[0]).toBe(165);

    // Nothing exists: the recipient's, the treasury's and the keeper's USDC accounts are created.
    expect(await costs.fillCost(fillTo(recipient), 5_000)).toEqual({ native: BASE + 3n * RENT, at: 1_000 });
    everyDestination();
    expect(await costs.fillCost(fillTo(recipient), 5_000)).toEqual({ native: BASE, at: 1_000 });
    // A swap of two makers carries the second maker's signature too.
    expect(await costs.fillCost({ ...fillTo(recipient), legs: 2 }, 5_000)).toEqual({
      native: BASE + 5_000n,
      at: 1_000,
    });
  });

  it("reads the destinations in one call, and only those not yet seen to exist", async () => {
    const costs = costsOn();
    await costs.keepFresh(0);
    everyDestination();
    await costs.fillCost(fillTo(recipient), 0);
    expect(called("getMultipleAccounts")).toHaveLength(1);
    expect(called("getMultipleAccounts")[0]?.params[0]).toEqual([
      ata(recipient, USDC),
      ata(chain.treasury, USDC),
      ata(chain.keeper, USDC),
    ]);
    expect(await costs.fillCost(fillTo(recipient), 0)).toMatchObject({ native: BASE });
    expect(called("getMultipleAccounts")).toHaveLength(1);

    // A new recipient: only its account is read; missing, it is read again next time.
    const fresh = localSolanaKeypair("test:costs-fresh").publicKey.toBase58();
    expect(await costs.fillCost(fillTo(fresh), 0)).toMatchObject({ native: BASE + RENT });
    expect(await costs.fillCost(fillTo(fresh), 0)).toMatchObject({ native: BASE + RENT });
    expect(called("getMultipleAccounts").map((c) => c.params[0])).toEqual([
      expect.any(Array),
      [ata(fresh, USDC)],
      [ata(fresh, USDC)],
    ]);
  });

  it("counts the treasury's account of the fee token, the keeper's of the gas token, and no fee account at 0 bps", async () => {
    const costs = costsOn();
    await costs.keepFresh(0);
    // Selling USDC (the first fee token and the gas token): both fee accounts are USDC, the recipient's cNGN.
    await costs.fillCost(fillTo(recipient, USDC, CNGN), 0);
    expect(called("getMultipleAccounts")[0]?.params[0]).toEqual([
      ata(recipient, CNGN),
      ata(chain.treasury, USDC),
      ata(chain.keeper, USDC),
    ]);
    const free = solanaChainCosts({
      ...chain,
      fee: { ...chain.fee, bps: 0 },
      gasFee: { ...chain.gasFee, token: null },
    });
    await free.keepFresh(0);
    calls = [];
    await free.fillCost(fillTo(recipient, USDC, CNGN), 0);
    expect(called("getMultipleAccounts")[0]?.params[0]).toEqual([ata(recipient, CNGN), ata(chain.keeper, CNGN)]);
  });

  it("answers null when the accounts cannot be read, and keeps its inputs through failed reads", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const costs = costsOn();
    await costs.keepFresh(1_000);
    down = true;
    expect(await costs.fillCost(fillTo(recipient), 2_000)).toBeNull();
    // Due again, the reads fail: the last values stand, dated by their own read.
    await costs.keepFresh(1_000 + INPUTS_EVERY_MS);
    down = false;
    everyDestination();
    expect(await costs.fillCost(fillTo(recipient), 1_000 + INPUTS_EVERY_MS)).toEqual({ native: BASE, at: 1_000 });
    const logged = errors.mock.calls.map((c) => c[0] as { event: string; input: string });
    expect(logged.every((l) => l.event === "chain_cost_read_failed")).toBe(true);
    expect(logged.map((l) => l.input).sort()).toEqual([
      "destination_accounts",
      "lamports_per_signature",
      "token_account_rent",
    ]);
    errors.mockRestore();
  });

  it("reads its inputs at most every INPUTS_EVERY_MS, one read at a time", async () => {
    const costs = costsOn();
    await Promise.all([costs.keepFresh(0), costs.keepFresh(0)]);
    expect(called("getFeeForMessage")).toHaveLength(1);
    expect(called("getMinimumBalanceForRentExemption")).toHaveLength(1);
    await costs.keepFresh(INPUTS_EVERY_MS - 1);
    expect(called("getFeeForMessage")).toHaveLength(1);
    await costs.keepFresh(INPUTS_EVERY_MS);
    expect(called("getFeeForMessage")).toHaveLength(2);
    everyDestination();
    expect(await costs.fillCost(fillTo(recipient), INPUTS_EVERY_MS)).toMatchObject({ at: INPUTS_EVERY_MS });
  });

  it("charges the configured fee bps: Solana has no fee contract", () => {
    expect(costsOn().feeBps(USDC)).toBe(chain.fee.bps);
  });
});

describe("solanaChainCosts on the local chain", () => {
  let harness: SolanaHarness;
  let chain: SolanaChain;
  beforeAll(async () => {
    harness = await startSolanaHarness({ port: 0, slotMs: 3_600_000 });
    chain = { ...localSolana, rpcUrl: harness.url };
  });
  afterAll(async () => {
    await harness?.stop();
  });

  it("charges one rent more for a fresh recipient, the chain's rent-exempt minimum, and the keeper spends just that", async () => {
    const taker = harness.accounts.takers[0] as Keypair;
    const resolver = harness.accounts.resolvers[0] as Keypair;
    const fresh = localSolanaKeypair("test:costs-recipient").publicKey.toBase58();
    const costs = solanaChainCosts(chain);
    const now = Date.now();
    await costs.keepFresh(now);
    const rent = BigInt(await new Connection(harness.url).getMinimumBalanceForRentExemption(165));

    const existing = await costs.fillCost(fillTo(taker.publicKey.toBase58()), now);
    const created = await costs.fillCost(fillTo(fresh), now);
    expect(existing).toEqual({ native: BASE, at: now });
    expect(created).toEqual({ native: BASE + rent, at: now });

    // The swap to the fresh recipient, landed: the keeper's lamports went down by exactly that cost.
    const quote = swapQuote({
      taker: taker.publicKey.toBase58(),
      recipient: fresh,
      sell: "cNGN",
      sellAmount: 1_580_000_000n,
      outputAmount: 1_000_140n,
      quoteId: "q_costs",
    });
    const { blockhash } = await new Connection(harness.url).getLatestBlockhash("confirmed");
    const resolverKey = resolver.publicKey.toBase58();
    const request = signRequest(
      buildSwapTransaction(chain, quote.terms, { resolver: resolverKey, amounts: quote.amounts }, blockhash),
    );
    const quoteTransaction = withSignature(request, resolverKey, signMessageOf(request, resolver));
    const { raw, signature } = signAsFeePayer(addSignatures(quoteTransaction, taker), harness.accounts.keeper);
    expect(await sendSwap(harness.url, raw)).toEqual({ status: "accepted" });
    const receipt = await swapReceipt(harness.url, signature);
    expect(receipt).toMatchObject({ status: "success", fee: BASE, keeperSpent: BASE + rent });
    expect(receipt?.keeperSpent).toBe(created?.native);
    // The receipt names the account it created: the evidence of a rent paid (docs/security.md).
    expect(receipt?.created).toEqual([ata(fresh, USDC)]);

    // The recipient's account exists now: its next fill creates nothing.
    expect(await costs.fillCost(fillTo(fresh), now)).toEqual({ native: BASE, at: now });
  });
});
