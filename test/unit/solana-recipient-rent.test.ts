import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { localSolanaKeypair } from "../../scripts/lib/solana-harness/accounts";
import { solanaAdapter } from "../../src/chains/solana/adapter";
import { solanaChainCosts } from "../../src/chains/solana/costs";
import { ExistingAccounts } from "../../src/chains/solana/existing-accounts";
import { recipientAccountOf, unpricedRecipientAccount } from "../../src/chains/solana/recipient-rent";
import type { SwapCreation } from "../../src/chains/solana/swap-creations";
import type { SwapTransfer } from "../../src/chains/solana/swap-transfers";
import type { SolanaChain } from "../../src/config/schema";
import { localSolana, mintOf, swapQuote } from "../support/solana-swap";

/** The rent of a recipient's token account the quote did not charge (docs/security.md, "A recipient's token account closed for its rent"). */

const leg = (index: number, from: string, destination: string): SwapTransfer => ({
  index,
  from,
  source: `${from}-account`,
  destination,
  mint: "mint",
  amount: 1n,
});
const creation = (index: number, account: string, payer: string): SwapCreation => ({
  index,
  account,
  payer,
  owner: `owner-of-${account}`,
  mint: "mint",
});
/** A swap whose recipient's account `recipient-account` is created at instruction 3, paid by `payer`. */
const swapPaying = (payer: string) => ({
  transfers: [leg(6, "taker", "sale-account"), leg(7, "resolver", "recipient-account"), leg(8, "resolver", "fees")],
  creations: [
    creation(2, "sale-account", "resolver"),
    creation(3, "recipient-account", payer),
    creation(4, "fees", "keeper"),
  ],
});

describe("unpricedRecipientAccount", () => {
  it("names the recipient's account the keeper would create though the quote charged no rent for it", () => {
    expect(unpricedRecipientAccount(swapPaying("keeper"), "keeper", false)).toBe("recipient-account");
  });

  it("names none when the quote charged its rent, or another key pays for it", () => {
    expect(unpricedRecipientAccount(swapPaying("keeper"), "keeper", true)).toBeNull();
    // A recipient that is the resolver's own key: the resolver pays for its account.
    expect(unpricedRecipientAccount(swapPaying("resolver"), "keeper", false)).toBeNull();
    const uncreated = { ...swapPaying("keeper"), creations: [] };
    expect(unpricedRecipientAccount(uncreated, "keeper", false)).toBeNull();
  });
});

describe("ExistingAccounts", () => {
  const reader = (exists: Set<string>) => async (accounts: string[]) => accounts.map((a) => exists.has(a));

  it("holds an account seen to exist (has), not one seen missing", async () => {
    const existing = new ExistingAccounts(reader(new Set(["a"])));
    expect(existing.has("a")).toBe(false);
    expect(await existing.missing(["a", "b"])).toBe(1);
    expect(existing.has("a")).toBe(true);
    expect(existing.has("b")).toBe(false);
  });

  it("forgets the least recently priced account first, so one a quote was just priced with is still held", async () => {
    const existing = new ExistingAccounts(reader(new Set(["a", "b", "c"])), 2);
    await existing.missing(["a"]);
    await existing.missing(["b"]);
    // "a" priced again, from memory: "b" is now the least recently priced.
    await existing.missing(["a"]);
    await existing.missing(["c"]);
    expect(["a", "b", "c"].map((account) => existing.has(account))).toEqual([true, false, true]);
  });
});

describe("the quote's createsRecipientAccount", () => {
  const USDC = mintOf(localSolana, "USDC");
  const taker = localSolanaKeypair("taker:6").publicKey.toBase58();
  const resolver = localSolanaKeypair("resolver:2").publicKey.toBase58();
  /** Accounts the fake chain has; every other account is missing. */
  let onChain = new Set<string>();

  beforeAll(() => {
    vi.stubGlobal("fetch", async (_url: string, init: RequestInit) => {
      const { id, method, params } = JSON.parse(String(init.body)) as { id: number; method: string; params: unknown[] };
      const answers: Record<string, () => unknown> = {
        getLatestBlockhash: () => ({
          context: { slot: 1 },
          value: { blockhash: "11111111111111111111111111111111", lastValidBlockHeight: 151 },
        }),
        getFeeForMessage: () => ({ context: { slot: 1 }, value: 5_000 }),
        getMinimumBalanceForRentExemption: () => 2_039_280,
        getMultipleAccounts: () => ({
          context: { slot: 1 },
          value: (params[0] as string[]).map((a) => (onChain.has(a) ? { lamports: 1, data: ["", "base64"] } : null)),
        }),
      };
      return Response.json({ jsonrpc: "2.0", id, result: answers[method]?.() });
    });
  });
  afterAll(() => vi.unstubAllGlobals());

  /** The facts of the swap built for a quote priced just before, on a chain where `onChain` exist. */
  async function factsOf(chain: SolanaChain) {
    const quote = swapQuote({ chain, taker, sell: "cNGN", sellAmount: 1_600_000_000n, outputAmount: 1_000_000n });
    const costs = solanaChainCosts(chain);
    const now = Date.now();
    await costs.keepFresh(now);
    const fill = { kind: "rfq" as const, units: null, ...quote.terms };
    expect(await costs.fillCost(fill, now)).not.toBeNull();
    const { signing } = solanaAdapter(chain);
    if (signing.kind !== "winner") throw new Error("Solana's winner signs");
    await signing.keepFresh(now);
    const keys = { address: "0x", publicKey: "0x04", ed25519Key: resolver };
    return signing.request(quote.terms, { resolver, amounts: quote.amounts }, keys, now)?.facts;
  }

  it("is false when the quote was priced with the recipient's account existing, true when it charged its rent", async () => {
    const chain = { ...localSolana, rpcUrl: "http://rpc.test/" };
    const recipientAccount = recipientAccountOf(chain, taker, USDC) as string;
    onChain = new Set();
    expect(await factsOf(chain)).toMatchObject({ createsRecipientAccount: true, lastValidBlockHeight: 151 });
    onChain = new Set([recipientAccount]);
    expect(await factsOf(chain)).toMatchObject({ createsRecipientAccount: false });
    // Closed since: the chain's memory still prices it as existing, and the quote says so.
    onChain = new Set();
    expect(await factsOf(chain)).toMatchObject({ createsRecipientAccount: false });
  });
});
