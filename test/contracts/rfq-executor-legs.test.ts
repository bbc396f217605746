/**
 * One swap filled from several resolvers' legs in one transaction, all or none (docs/legs.md; docs/contracts.md,
 * "The fill call"): each leg's resolver takes its part of the sell amount and gives the output it signed for it,
 * each leg pays its own protocol fee, the recipient gets Σ(outputAmount_i − fee_i) − gasFee, and every refusal
 * and failed transfer names the leg's resolver.
 */
import { type Address, type LocalAccount, parseEventLogs, parseUnits } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anvilAccount, fund } from "../../scripts/lib/evm-deploy";
import { rfqExecutorAbi } from "../../src/chains/evm/abi/rfq-executor";
import { testTokenAbi } from "../../src/chains/evm/abi/test-token";
import { revertOutcome } from "../../src/chains/evm/revert-reasons";
import { decodedRevert } from "../../src/chains/evm/rpc";
import { LEG_GAS } from "../../src/costs/fill-units";
import {
  approvePermit2,
  balanceOf,
  type Chain,
  fillAbi,
  revertAfterEach,
  revertError,
  startChain,
  withBalanceChanges,
} from "./chain";
import { feeOf, type Leg, type LegSwapTerms, legSwap } from "./leg-swap";

const taker = anvilAccount(1);
const resolvers = [2, 3, 4, 6, 8].map((i) => anvilAccount(i));
const recipient = anvilAccount(5).address;
const stranger = anvilAccount(7).address;
const keeper = anvilAccount(9);
const GAS_FEE = 50_000n;

let chain: Chain;

beforeAll(async () => {
  chain = await startChain();
  const amount = parseUnits("10000000", 6);
  await fund(chain.rpcUrl, chain.deployment, { takers: [taker.address], resolvers, amount });
  await approvePermit2(chain, taker, chain.deployment.cngn);
  await approvePermit2(chain, taker, chain.deployment.usdc);
});

afterAll(() => chain?.stop());

revertAfterEach(() => chain);

/** A swap of cNGN for USDC from `legs`, the taker's and each resolver's signatures made. */
const swap = (legs: Leg[], options: Omit<LegSwapTerms, "taker" | "recipient" | "gasFee" | "legs"> = {}) =>
  legSwap(chain, { taker, recipient, gasFee: GAS_FEE, legs, ...options });

type Swap = Awaited<ReturnType<typeof swap>>;

const fillArgs = (s: Swap) => [s.order, s.permit, taker.address, s.takerSignature, s.bids] as const;

const simulate = (s: Swap) =>
  chain.publicClient.simulateContract({
    account: keeper,
    address: chain.deployment.executor,
    abi: fillAbi,
    functionName: "fill",
    args: fillArgs(s),
  });

async function fill(s: Swap) {
  const { request } = await simulate(s);
  const hash = await chain.wallet(keeper).writeContract(request);
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
  return receipt;
}

/** The error a fill reverts with, by name and arguments. */
async function refusal(s: Swap) {
  const reverted = await revertError(simulate(s));
  return { name: reverted.data?.errorName, args: reverted.data?.args ?? [] };
}

/** `n` legs of different resolvers, of unequal parts and outputs whose fees round down apart. */
function legsOf(n: number): Leg[] {
  return resolvers.slice(0, n).map((resolver, i) => ({
    resolver,
    sellAmount: parseUnits(String(300_000 + 10_000 * i), 6) + 7n,
    outputAmount: parseUnits(String(200 + 7 * i), 6) + 999n,
  }));
}

const holders = () => [
  taker.address,
  ...resolvers.map((r) => r.address),
  recipient,
  chain.deployment.feeController,
  keeper.address,
];

describe("RfqExecutor.fill from several resolvers' legs", () => {
  it.each([2, 3])(
    "settles %i legs in one transaction, an event each, the recipient getting Σ(out − fee) − gasFee",
    async (n) => {
      const legs = legsOf(n);
      const s = await swap(legs);
      const { cngn, usdc } = chain.deployment;
      const { result: receipt, changes } = await withBalanceChanges(chain, [cngn, usdc], holders(), () => fill(s));

      const fee = s.fees.reduce((a, b) => a + b, 0n);
      const output = legs.reduce((sum, leg) => sum + leg.outputAmount, 0n);
      // Each leg's fee is its own, rounded down: not the fee of the legs' whole.
      expect(fee).toBeLessThan(feeOf(output));
      expect(s.received).toBe(output - fee - GAS_FEE);
      const part = (i: number) => (i < n ? (legs[i]?.sellAmount ?? 0n) : 0n);
      const out = (i: number) => (i < n ? -(legs[i]?.outputAmount ?? 0n) : 0n);
      const [sold, bought] = changes;
      expect(sold).toEqual([-s.takerPays, ...resolvers.map((_, i) => part(i)), 0n, 0n, 0n]);
      expect(bought).toEqual([0n, ...resolvers.map((_, i) => out(i)), s.received, fee, GAS_FEE]);

      const events = parseEventLogs({ abi: rfqExecutorAbi, logs: receipt.logs, eventName: "RfqFilled" });
      expect(events.map((e) => [e.args.resolver, e.args.sellAmount, e.args.outputAmount, e.args.fee])).toEqual(
        legs.map((leg, i) => [leg.resolver.address, leg.sellAmount, leg.outputAmount, s.fees[i]]),
      );
      expect(new Set(events.map((e) => e.transactionHash)).size).toBe(1);
      // Summed, the events are the swap's: the recipient's whole, the gas fee once (on the first leg).
      const total = (of: (e: (typeof events)[number]) => bigint) => events.reduce((sum, e) => sum + of(e), 0n);
      expect(total((e) => e.args.received ?? 0n)).toBe(s.received);
      expect(events.map((e) => e.args.gasFee)).toEqual([GAS_FEE, ...Array(n - 1).fill(0n)]);
      expect(total((e) => e.args.sellAmount ?? 0n)).toBe(s.takerPays);
    },
  );

  it("takes a gas fee in the sell token once, on top of the legs' parts", async () => {
    const [a, b] = legsOf(2) as [Leg, Leg];
    const s = await swap([a, b], { gasIn: "sell" });
    const { cngn } = chain.deployment;
    const parties = [taker.address, a.resolver.address, b.resolver.address, keeper.address];
    const { changes } = await withBalanceChanges(chain, [cngn], parties, () => fill(s));
    expect(changes[0]).toEqual([-(a.sellAmount + b.sellAmount + GAS_FEE), a.sellAmount, b.sellAmount, GAS_FEE]);
  });

  it("refuses a resolver named in two legs", async () => {
    const [a, b] = legsOf(2) as [Leg, Leg];
    const s = await swap([a, { ...b, resolver: a.resolver }]);
    expect(await refusal(s)).toEqual({ name: "DuplicateResolver", args: [a.resolver.address] });
  });

  it("refuses legs that do not sum to exactly the swap's sell amount, short or over", async () => {
    const legs = legsOf(3);
    const whole = legs.reduce((sum, leg) => sum + leg.sellAmount, 0n);
    for (const sellAmount of [whole + 1n, whole - 1n]) {
      expect(await refusal(await swap(legs, { sellAmount }))).toEqual({
        name: "LegsSumMismatch",
        args: [whole, sellAmount],
      });
    }
  });

  it("refuses no legs and more than MAX_LEGS", async () => {
    const max = await chain.publicClient.readContract({
      address: chain.deployment.executor,
      abi: rfqExecutorAbi,
      functionName: "MAX_LEGS",
    });
    expect(max).toBe(4n);
    expect(await refusal(await swap(legsOf(5)))).toEqual({ name: "LegCountOutOfRange", args: [5n, 4n] });
    const none = await swap([], { sellAmount: 1_000n });
    expect(await refusal(none)).toEqual({ name: "LegCountOutOfRange", args: [0n, 4n] });
  });

  it("refuses a leg of zero", async () => {
    const [a, b] = legsOf(2) as [Leg, Leg];
    expect(await refusal(await swap([a, { ...b, outputAmount: 0n }]))).toEqual({
      name: "ZeroAmountLeg",
      args: [b.resolver.address],
    });
  });

  it("refuses a leg signed for another part, naming that leg's resolver", async () => {
    const [a, b, c] = legsOf(3) as [Leg, Leg, Leg];
    const s = await swap([a, { ...b, signedSellAmount: b.sellAmount + 1n }, c]);
    expect(await refusal(s)).toEqual({ name: "InvalidResolverSignature", args: [b.resolver.address] });
  });

  it("moves nothing for anyone when one leg's resolver lacks the balance, naming that resolver", async () => {
    const legs = legsOf(3);
    const short = legs[1]?.resolver as LocalAccount;
    const { usdc, cngn } = chain.deployment;
    const balance = await balanceOf(chain, usdc, short.address);
    const hash = await chain.wallet(short).writeContract({
      address: usdc,
      abi: testTokenAbi,
      functionName: "transfer",
      args: [stranger as Address, balance - 1n],
    });
    await chain.publicClient.waitForTransactionReceipt({ hash });
    const s = await swap(legs);
    const reverted = await revertError(simulate(s));
    expect(reverted.data?.errorName).toBe("ResolverLegFailed");
    expect(reverted.data?.args?.[0]).toBe(short.address);
    // The relay blames a resolver, with the shortfall, though the quote's winner is the first leg's.
    const parties = {
      taker: taker.address,
      resolver: resolvers[0]?.address as Address,
      permit2: chain.deployment.permit2,
      executor: chain.deployment.executor,
    };
    const decoded = decodedRevert(await simulate(s).catch((e: unknown) => e));
    expect(revertOutcome(decoded, parties)).toEqual({
      kind: "requote",
      reason: "resolver:insufficient_balance",
      shortfall: (legs[1]?.outputAmount ?? 0n) - 1n,
      resolver: legs[1]?.resolver.address,
    });

    // Sent and mined anyway: the first leg's transfers, made before the second's failed, are undone with it.
    const { result: receipt, changes } = await withBalanceChanges(chain, [cngn, usdc], holders(), async () => {
      const sent = await chain.wallet(keeper).writeContract({
        address: chain.deployment.executor,
        abi: rfqExecutorAbi,
        functionName: "fill",
        args: fillArgs(s),
        gas: 2_000_000n,
      });
      return chain.publicClient.waitForTransactionReceipt({ hash: sent });
    });
    expect(receipt.status).toBe("reverted");
    for (const row of changes) expect(row.every((change) => change === 0n)).toBe(true);
  });

  it("measures the gas of one to four legs, first fills and once every party holds both tokens: a leg adds LEG_GAS", async () => {
    const measure = async (warm: boolean) => {
      const used: bigint[] = [];
      for (const n of [1, 2, 3, 4]) {
        const id = await chain.testClient.snapshot();
        // A fill before leaves the recipient, the fee controller and the keeper holding the buy token.
        if (warm) await fill(await swap(legsOf(1)));
        used.push((await fill(await swap(legsOf(n)))).gasUsed);
        await chain.testClient.revert({ id });
      }
      const extra = used.slice(1).map((g, i) => g - (used[i] ?? 0n));
      console.info(
        `fill gas (${warm ? "warm" : "first"}) by legs 1..4: ${used.join(", ")}; extra legs: ${extra.join(", ")}`,
      );
      // Each leg past the first adds what the relay prices a leg at (`LEG_GAS`), within 1,500 gas under it.
      for (const step of extra) {
        expect(step).toBeLessThanOrEqual(LEG_GAS);
        expect(step).toBeGreaterThan(LEG_GAS - 1_500n);
      }
    };
    await measure(false);
    await measure(true);
  });
});
