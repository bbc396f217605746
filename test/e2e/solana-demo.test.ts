import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startLocalResolvers } from "../../scripts/lib/local-stack";
import { localSolanaKeypair } from "../../scripts/lib/solana-harness/accounts";
import type { ResolverClient } from "../../src/clients/resolver/client";
import { fetchRelayConfig } from "../../src/clients/resolver/relay-config";
import { type SplToken, splBalance } from "../../src/clients/resolver/solana-inventory";
import { followToFinal } from "../../src/clients/taker/follow";
import { swapOnSolana } from "../../src/clients/taker/solana-swap";

/**
 * `npm run demo -- --chain 103` as a test: a taker swaps cNGN for USDC on the relay's Solana corridor,
 * served by the two local reference resolvers with their Solana keys, settled on the LiteSVM harness by
 * the keeper as fee payer, from the quote to `final`, every balance checked to the base unit.
 */

const base = inject("relayUrl");
const rpcUrl = inject("rpcUrl");
const solanaRpcUrl = inject("solanaRpcUrl");

const taker = localSolanaKeypair("taker:5");
const alpha = localSolanaKeypair("resolver:1");

let fleet: ResolverClient[] = [];
let tokens: { cngn: SplToken; usdc: SplToken };
let keeper: string;
let treasury: string;
beforeAll(async () => {
  const record = await fetchRelayConfig(base);
  const chain = record.chains.find((c) => c.kind === "solana");
  if (chain?.kind !== "solana") throw new Error("the relay publishes no Solana chain");
  const token = (symbol: string): SplToken => {
    const t = chain.tokens.find((x) => x.symbol === symbol);
    if (!t) throw new Error(`no ${symbol}`);
    return { address: t.address, tokenProgram: t.tokenProgram };
  };
  tokens = { cngn: token("cNGN"), usdc: token("USDC") };
  keeper = chain.keeper;
  treasury = chain.treasury;
  fleet = await startLocalResolvers(base, {
    rpcUrl,
    solana: { rpcUrl: solanaRpcUrl },
    resolvers: [
      { index: 1, name: "alpha", spreadBps: 0 },
      { index: 2, name: "beta", spreadBps: 15 },
    ],
  });
});
afterAll(() => Promise.all(fleet.map((c) => c.stop())));

const balances = async () => {
  const of = (owner: string, t: SplToken) => splBalance(solanaRpcUrl, owner, t);
  const [takerCngn, takerUsdc, alphaCngn, alphaUsdc, treasuryUsdc, keeperUsdc] = await Promise.all([
    of(taker.publicKey.toBase58(), tokens.cngn),
    of(taker.publicKey.toBase58(), tokens.usdc),
    of(alpha.publicKey.toBase58(), tokens.cngn),
    of(alpha.publicKey.toBase58(), tokens.usdc),
    of(treasury, tokens.usdc),
    of(keeper, tokens.usdc),
  ]);
  return { takerCngn, takerUsdc, alphaCngn, alphaUsdc, treasuryUsdc, keeperUsdc };
};

describe("the demo on Solana: a taker swaps cNGN for USDC on the local harness, quote to final", () => {
  it("settles the swap the winner signed, with the keeper paying the fee, and makes it final", async () => {
    const before = await balances();
    const { quote, submission } = await swapOnSolana({
      relayUrl: base,
      keypair: taker,
      chainId: 103,
      sellToken: tokens.cngn.address,
      buyToken: tokens.usdc.address,
      sellAmount: 1_580_000_000n,
    });
    // beta quotes 15 bps under alpha, so alpha wins and signs.
    expect(quote.resolver?.name).toBe("alpha");
    expect(submission.httpStatus).toBe(202);
    const { quote: final, execution } = await followToFinal(base, quote.quoteId, {
      executionId: submission.answer.executionId,
      timeoutMs: 30_000,
    });
    expect(final).toMatchObject({ status: "settled", final: true });
    expect(final.timeline.map((e) => e.event)).toEqual([
      "requested",
      "quoted",
      "signed",
      "submitted",
      "settled",
      "final",
    ]);
    const settlement = final.settlement;
    expect(settlement).toMatchObject({ confirmed: true, submitter: keeper, txHash: submission.answer.txHash });
    expect(settlement?.txHash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    expect(execution).toMatchObject({ status: "settled", gasUsed: expect.stringMatching(/^[1-9]\d*$/) });

    const after = await balances();
    const fee = BigInt(quote.fee.amount);
    const gasFee = BigInt(quote.gasFee.amount);
    expect(after.takerCngn - before.takerCngn).toBe(-BigInt(quote.takerPays));
    expect(after.takerUsdc - before.takerUsdc).toBe(BigInt(quote.received));
    expect(after.alphaCngn - before.alphaCngn).toBe(BigInt(quote.proceeds));
    expect(after.alphaUsdc - before.alphaUsdc).toBe(-(BigInt(quote.received) + fee + gasFee));
    expect(after.treasuryUsdc - before.treasuryUsdc).toBe(fee);
    expect(after.keeperUsdc - before.keeperUsdc).toBe(gasFee);
  });
});
