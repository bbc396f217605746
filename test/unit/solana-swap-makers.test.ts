import { base58, base64 } from "@scure/base";
import { VersionedTransaction } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { localSolanaKeypair } from "../../scripts/lib/solana-harness/accounts";
import { checkTakerTransaction } from "../../src/chains/solana/swap-checks";
import { swapCreations } from "../../src/chains/solana/swap-creations";
import { type SwapInstructions, simulationFailure } from "../../src/chains/solana/swap-failures";
import { swapFillsOf } from "../../src/chains/solana/swap-fill";
import { makerLegs, type SwapMaker } from "../../src/chains/solana/swap-legs";
import type { SwapReceipt } from "../../src/chains/solana/swap-receipt";
import { signatureFailure } from "../../src/chains/solana/swap-signature-failure";
import { signRequest, verifyWinnerSignature, withSignature } from "../../src/chains/solana/swap-signatures";
import { buildSwapTransaction, MAX_TRANSACTION_BYTES, tokenAccount } from "../../src/chains/solana/swap-transaction";
import { swapTransfers } from "../../src/chains/solana/swap-transfers";
import type { QuoteAmounts } from "../../src/types";
import { addSignatures, localSolana, mintOf, signMessageOf, swapQuote } from "../support/solana-swap";

/**
 * A Solana swap of several makers (docs/settlement.md, "Solana: the swap transaction"; docs/legs.md): one
 * transaction of every maker's legs, signed by each maker, checked, blamed and recorded leg by leg.
 */

const taker = localSolanaKeypair("taker:5");
const keeper = localSolanaKeypair("keeper");
const [one, two, three] = [1, 2, 3].map((n) => localSolanaKeypair(`resolver:${n}`)) as [
  ReturnType<typeof localSolanaKeypair>,
  ReturnType<typeof localSolanaKeypair>,
  ReturnType<typeof localSolanaKeypair>,
];
const recipient = localSolanaKeypair("test:stranger").publicKey.toBase58();
const blockhash = base58.encode(new Uint8Array(32).fill(7));
const USDC = mintOf(localSolana, "USDC");
const CNGN = mintOf(localSolana, "cNGN");
const usdc = localSolana.tokens.find((t) => t.address === USDC) as (typeof localSolana.tokens)[0];
const cngn = localSolana.tokens.find((t) => t.address === CNGN) as (typeof localSolana.tokens)[0];
const GAS = 5_000n;
const BPS = BigInt(localSolana.fee.bps);

/** The amounts of a fill of `makers`, as `composeLegs` sums them: each leg's fee its own, the gas fee once. */
function amountsOf(makers: SwapMaker[]): QuoteAmounts {
  const outputAmount = makers.reduce((s, m) => s + m.outputAmount, 0n);
  const fee = makers.reduce((s, m) => s + (m.outputAmount * BPS) / 10_000n, 0n);
  const sold = makers.reduce((s, m) => s + m.sellAmount, 0n);
  return { outputAmount, fee, gasFee: GAS, received: outputAmount - fee - GAS, takerPays: sold, proceeds: sold };
}

/** taker:5 sells cNGN to `makers` for USDC to a recipient of its own (the largest form). */
function swapOf(makers: SwapMaker[]) {
  const sellAmount = makers.reduce((s, m) => s + m.sellAmount, 0n);
  const { terms } = swapQuote({
    taker: taker.publicKey.toBase58(),
    recipient,
    sell: "cNGN",
    sellAmount,
    outputAmount: 1_000_000n,
    quoteId: "q_0be4a1d2c3b4a5968778695a4b3c2d1e",
  });
  const amounts = amountsOf(makers);
  const tx = buildSwapTransaction(
    localSolana,
    terms,
    { resolver: makers[0]?.resolver as string, amounts, makers },
    blockhash,
  );
  return { terms, amounts, tx };
}

const maker = (kp: typeof one, sellAmount: bigint, outputAmount: bigint): SwapMaker => ({
  resolver: kp.publicKey.toBase58(),
  sellAmount,
  outputAmount,
});
/** Two makers of 60 % and 40 %: the gas fee comes out of the first's output. */
const twoMakers = [maker(one, 1_896_000_000n, 1_206_000n), maker(two, 1_264_000_000n, 804_000n)];

function instructionsOf(tx: VersionedTransaction): SwapInstructions {
  const keys = tx.message.staticAccountKeys.map((k) => k.toBase58());
  return { transfers: swapTransfers(tx.message, keys), creations: swapCreations(tx.message, keys) };
}

describe("a Solana swap of two makers", () => {
  it("moves each maker's legs in turn: its part from the taker, its output less its fees, the gas fee from the first", () => {
    const { tx } = swapOf(twoMakers);
    const moved = instructionsOf(tx).transfers.map((t) => [t.from, t.mint, t.amount]);
    const [a, b] = [one.publicKey.toBase58(), two.publicKey.toBase58()];
    const t = taker.publicKey.toBase58();
    expect(moved).toEqual([
      [t, CNGN, 1_896_000_000n],
      [a, USDC, 1_206_000n - 1_206n - GAS],
      [a, USDC, 1_206n],
      [a, USDC, GAS],
      [t, CNGN, 1_264_000_000n],
      [b, USDC, 804_000n - 804n],
      [b, USDC, 804n],
    ]);
    // Each maker signs; the keeper pays and the taker signs too: four signatures, the makers' after the taker's.
    expect(tx.message.header.numRequiredSignatures).toBe(4);
    const signers = tx.message.staticAccountKeys.slice(0, 4).map((k) => k.toBase58());
    expect(signers[0]).toBe(keeper.publicKey.toBase58());
    expect(new Set(signers)).toEqual(new Set([keeper.publicKey.toBase58(), t, a, b]));
    // Each maker pays for its own sell-token account; the keeper for the others.
    const payers = instructionsOf(tx).creations.map((c) => [c.owner, c.payer]);
    expect(payers).toContainEqual([a, a]);
    expect(payers).toContainEqual([b, b]);
    expect(payers.filter(([owner, payer]) => owner !== payer || owner === keeper.publicKey.toBase58())).toHaveLength(3);
  });

  it("takes the gas fee from the next maker when the first's output does not cover it", () => {
    const small = [maker(one, 1_580_000_000n, 4_000n), maker(two, 1_580_000_000n, 1_000_000n)];
    const legs = makerLegs(
      {
        taker: taker.publicKey.toBase58(),
        recipient,
        treasury: localSolana.treasury,
        keeper: localSolana.keeper,
        sellToken: CNGN,
        buyToken: USDC,
        sellAmount: 3_160_000_000n,
        gasFeeToken: USDC,
        feeToken: USDC,
      },
      amountsOf(small),
      small,
      localSolana.fee.bps,
    );
    const gas = legs.filter((l) => l.role === "gasFee").map((l) => [l.from, l.amount]);
    expect(gas).toEqual([
      [one.publicKey.toBase58(), 4_000n - 4n],
      [two.publicKey.toBase58(), GAS - (4_000n - 4n)],
    ]);
    expect(legs.filter((l) => l.role === "received")).toHaveLength(1);
  });

  it("refuses makers whose parts or outputs do not add up to the quote's, and fees in the sell token", () => {
    const { terms, amounts } = swapOf(twoMakers);
    const off = [twoMakers[0] as SwapMaker, { ...(twoMakers[1] as SwapMaker), outputAmount: 804_001n }];
    const build = (makers: SwapMaker[], t = terms) =>
      buildSwapTransaction(localSolana, t, { resolver: "x", amounts, makers }, blockhash);
    expect(() => build(off)).toThrow(/do not add up/);
    expect(() => build(twoMakers, { ...terms, gasFeeToken: CNGN })).toThrow(/buy token/);
    expect(() => build([twoMakers[0] as SwapMaker, twoMakers[0] as SwapMaker])).toThrow(/two legs/);
  });

  it("fits in a packet at its largest, 1,194 bytes of 1,232; three makers never do", () => {
    // Seven transfers at most: a maker pays the gas fee only when the one before it delivers nothing.
    const { tx } = swapOf(twoMakers);
    expect(tx.serialize().length).toBe(1_194);
    expect(tx.serialize().length).toBeLessThanOrEqual(MAX_TRANSACTION_BYTES);
    const spilled = swapOf([maker(one, 1_580_000_000n, 4_000n), maker(two, 1_580_000_000n, 1_000_000n)]).tx;
    expect(spilled.serialize().length).toBe(1_194);
    expect(localSolana.maxLegs).toBe(2);
    const threeMakers = [...twoMakers, maker(three, 1_000_000_000n, 600_000n)];
    expect(() => swapOf(threeMakers)).toThrow();
  });
});

describe("the signatures of a swap of two makers", () => {
  const { tx } = swapOf(twoMakers);
  const request = signRequest(tx);
  const sigOne = signMessageOf(request, one);
  const sigTwo = signMessageOf(request, two);
  const quoted = withSignature(
    withSignature(request, one.publicKey.toBase58(), sigOne),
    two.publicKey.toBase58(),
    sigTwo,
  );
  const takerKey = taker.publicKey.toBase58();

  it("verifies each maker's signature in its own slot only", () => {
    expect(verifyWinnerSignature(request, one.publicKey.toBase58(), sigOne)).toBe(true);
    expect(verifyWinnerSignature(request, two.publicKey.toBase58(), sigTwo)).toBe(true);
    expect(verifyWinnerSignature(request, two.publicKey.toBase58(), sigOne)).toBe(false);
  });

  it("takes the taker's transaction with both makers' signatures in place, and refuses either changed", () => {
    const submitted = addSignatures(quoted, taker);
    expect(checkTakerTransaction(quoted, submitted, takerKey)).toMatchObject({ ok: true });
    const wire = VersionedTransaction.deserialize(base64.decode(submitted));
    for (const changed of [one, two]) {
      const slot = wire.message.staticAccountKeys.findIndex((k) => k.equals(changed.publicKey));
      const bytes = Uint8Array.from(base64.decode(submitted));
      bytes[1 + slot * 64] = (bytes[1 + slot * 64] ?? 0) ^ 1;
      expect(checkTakerTransaction(quoted, base64.encode(bytes), takerKey)).toEqual({
        ok: false,
        reason: "signature_changed",
      });
    }
  });

  it("names the maker whose signature the chain refuses, and no other", () => {
    const signedBy = (second: typeof one) => {
      const other = withSignature(request, one.publicKey.toBase58(), sigOne);
      const wrong = withSignature(other, two.publicKey.toBase58(), signMessageOf(request, second));
      return base64.decode(addSignatures(wrong, taker, keeper));
    };
    expect(signatureFailure(signedBy(one), takerKey)).toEqual({
      reason: "resolver:invalid_signature",
      resolver: two.publicKey.toBase58(),
    });
    expect(signatureFailure(signedBy(two), takerKey).reason).toBe("relay:simulation_failed:signature_verification");
  });
});

describe("the failure of one maker's leg", () => {
  const { tx } = swapOf(twoMakers);
  const swap = instructionsOf(tx);
  const [a, b] = [one.publicKey.toBase58(), two.publicKey.toBase58()];
  const transferOf = (from: string, nth = 0) => swap.transfers.filter((t) => t.from === from)[nth];
  const at = (index: number | undefined, inner: unknown) => ({ InstructionError: [index, inner] });

  it("blames the maker whose account is short, closed or given away, by its key", () => {
    for (const [key, nth] of [
      [a, 0],
      [b, 0],
      [b, 1],
    ] as const) {
      const leg = transferOf(key, nth);
      expect(simulationFailure(at(leg?.index, { Custom: 1 }), [], swap)).toEqual({
        reason: "resolver:insufficient_balance",
        resolver: key,
      });
      expect(simulationFailure(at(leg?.index, "InvalidAccountData"), [], swap).resolver).toBe(key);
      expect(simulationFailure(at(leg?.index, { Custom: 4 }), [], swap)).toEqual({
        reason: "resolver:transfer_failed",
        resolver: key,
      });
    }
    const created = swap.creations.find((c) => c.owner === b) as (typeof swap.creations)[0];
    const givenAway = { givenAway: new Set([created.account]) };
    expect(simulationFailure(at(created.index, { Custom: 0 }), [], swap, givenAway)).toEqual({
      reason: "resolver:transfer_failed",
      resolver: b,
    });
    expect(simulationFailure(at(created.index, { Custom: 1 }), [], swap)).toEqual({
      reason: "resolver:insufficient_balance",
      resolver: b,
    });
  });

  it("places a frozen account by leg: a maker's own to that maker, the taker's and the recipient's to the taker", () => {
    const sale = swap.transfers.filter((t) => t.from === taker.publicKey.toBase58())[1] as (typeof swap.transfers)[0];
    const frozenSale = { frozen: new Set([tokenAccount(cngn, b).toBase58()]) };
    expect(simulationFailure(at(sale.index, { Custom: 17 }), [], swap, frozenSale)).toEqual({
      reason: "resolver:transfer_failed",
      resolver: b,
    });
    const delivery = transferOf(b) as (typeof swap.transfers)[0];
    const frozenSource = { frozen: new Set([tokenAccount(usdc, b).toBase58()]) };
    expect(simulationFailure(at(delivery.index, { Custom: 17 }), [], swap, frozenSource).resolver).toBe(b);
    const frozenRecipient = { frozen: new Set([tokenAccount(usdc, recipient).toBase58()]) };
    expect(simulationFailure(at(delivery.index, { Custom: 17 }), [], swap, frozenRecipient)).toEqual({
      reason: "taker:recipient_refused",
    });
    const frozenTaker = { frozen: new Set([tokenAccount(cngn, taker.publicKey.toBase58()).toBase58()]) };
    expect(simulationFailure(at(sale.index, { Custom: 17 }), [], swap, frozenTaker)).toEqual({
      reason: "taker:transfer_failed",
    });
  });
});

describe("the fills of a landed swap of two makers", () => {
  it("records one fill per maker, its sale, output and fees its own, summing to the quote's", () => {
    const { tx, amounts } = swapOf(twoMakers);
    const receipt: SwapReceipt = {
      signature: "sig",
      orderHash: `0x${"ab".repeat(32)}`,
      slot: 9,
      blockTime: null,
      status: "success",
      unitsConsumed: 60_000n,
      fee: 20_000n,
      keeperSpent: 20_000n,
      changes: [],
      created: [],
      fills: instructionsOf(tx).transfers,
    };
    const parties = {
      quoteId: "q_1",
      taker: taker.publicKey.toBase58(),
      sellToken: CNGN,
      buyToken: USDC,
      gasFeeToken: USDC,
      feeToken: USDC,
    };
    const fills = swapFillsOf(localSolana, receipt, parties);
    expect(fills.map((f) => [f.resolver, f.sellAmount, f.outputAmount, f.fee, f.gasFee])).toEqual([
      [one.publicKey.toBase58(), 1_896_000_000n, 1_206_000n, 1_206n, GAS],
      [two.publicKey.toBase58(), 1_264_000_000n, 804_000n, 804n, 0n],
    ]);
    expect(fills.reduce((s, f) => s + f.received, 0n)).toBe(amounts.received);
    expect(new Set(fills.map((f) => f.logIndex)).size).toBe(2);
  });
});
