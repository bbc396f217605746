import { base58 } from "@scure/base";
import { createFreezeAccountInstruction, createThawAccountInstruction } from "@solana/spl-token";
import { type Keypair, PublicKey, Transaction } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { localSolanaKeypair } from "../../scripts/lib/solana-harness/accounts";
import { ChainUnavailableError } from "../../src/chains/settler";
import { readLatestBlockhash } from "../../src/chains/solana/blockhash";
import { keeperKeypairFromSecret } from "../../src/chains/solana/keeper-key";
import {
  type SwapStatus,
  sendSwap,
  signAsFeePayer,
  simulateSwap,
  swapFailureReason,
  swapReceipt,
  swapStatuses,
  takerHolds,
} from "../../src/chains/solana/settler-rpc";
import { checkTakerTransaction } from "../../src/chains/solana/swap-checks";
import { readWire } from "../../src/chains/solana/wire";
import { ata, signedSwap as signedLocalSwap, useLocalChain } from "../support/local-solana";
import { localSolana, mintOf } from "../support/solana-swap";

const local = useLocalChain();

const USDC = mintOf(localSolana, "USDC");
const CNGN = mintOf(localSolana, "cNGN");
/** Nothing listens on port 1: the connection is refused at once. */
const DOWN = "http://127.0.0.1:1";

/** Records the JSON-RPC method of every request sent through `fetch` until `restore`. */
function countingFetch() {
  const original = globalThis.fetch;
  const methods: string[] = [];
  globalThis.fetch = (async (url: string | URL | Request, init?: RequestInit) => {
    methods.push((JSON.parse(String(init?.body)) as { method: string }).method);
    return original(url, init);
  }) as typeof fetch;
  return {
    methods,
    restore: () => {
      globalThis.fetch = original;
    },
  };
}

/** One swap's status, read alone. */
const swapStatus = async (rpcUrl: string, signature: string, lastValidBlockHeight: number) =>
  (await swapStatuses(rpcUrl, [{ signature, lastValidBlockHeight }]))[0] as SwapStatus;

/** Whether a landed (or reverted) swap is final: its slot is rooted (`finalized`). */
const isFinalized = (status: Awaited<ReturnType<typeof swapStatus>>) =>
  (status.state === "landed" || status.state === "reverted") && status.confirmationStatus === "finalized";

/**
 * Freezes (or thaws) a token account as the mint's freeze authority does on the local chain: the
 * treasury signs SPL Token's FreezeAccount (ThawAccount), sent and landed in the next slot.
 */
async function setFrozen(account: PublicKey, mint: string, frozen: boolean): Promise<void> {
  const treasury = local.harness.accounts.treasury;
  const instruction = (frozen ? createFreezeAccountInstruction : createThawAccountInstruction)(
    account,
    new PublicKey(mint),
    treasury.publicKey,
  );
  const { blockhash } = await readLatestBlockhash(local.rpc);
  const tx = new Transaction({ feePayer: treasury.publicKey, recentBlockhash: blockhash }).add(instruction);
  tx.sign(treasury);
  const signature = base58.encode(tx.signature ?? new Uint8Array());
  expect(await sendSwap(local.rpc, tx.serialize())).toEqual({ status: "accepted" });
  local.harness.chain.advance(1);
  expect(await swapStatus(local.rpc, signature, Number.MAX_SAFE_INTEGER)).toMatchObject({ state: "landed" });
}

/**
 * A swap of `sellAmount` cNGN from `taker` to `resolver` as the keeper receives it: built, signed by
 * the resolver, then by the taker, checked, and signed by the keeper as fee payer.
 */
async function signedSwap(args: { taker: Keypair; resolver: Keypair; sellAmount?: bigint; quoteId: string }) {
  const swap = await signedLocalSwap(local, args);
  const check = checkTakerTransaction(swap.quoteTransaction, swap.submitted, args.taker.publicKey.toBase58());
  expect(check.ok).toBe(true);
  return swap;
}

describe("the keeper's Solana steps on the local chain", () => {
  it("simulates, sends, follows and reads a swap to finality", async () => {
    const taker = local.harness.accounts.takers[0] as Keypair;
    const resolver = local.harness.accounts.resolvers[0] as Keypair;
    const keeper = local.harness.accounts.keeper;
    const { quote, raw, signature, lastValidBlockHeight } = await signedSwap({ taker, resolver, quoteId: "q_settle" });

    const simulation = await simulateSwap(local.rpc, raw);
    if (!simulation.ok) throw new Error(`simulation failed: ${simulation.reason}`);
    expect(simulation.unitsConsumed).toBeGreaterThan(0);
    expect(simulation.unitsConsumed).toBeLessThan(localSolana.computeUnitLimit);
    expect(await swapStatus(local.rpc, signature, lastValidBlockHeight)).toEqual({ state: "pending" });

    expect(await sendSwap(local.rpc, raw)).toEqual({ status: "accepted" });
    expect(await sendSwap(local.rpc, raw)).toEqual({ status: "known" });

    const landed = await swapStatus(local.rpc, signature, lastValidBlockHeight);
    expect(landed).toEqual({ state: "landed", slot: local.harness.chain.slot, confirmationStatus: "confirmed" });
    expect(isFinalized(landed)).toBe(false);

    const receipt = await swapReceipt(local.rpc, signature);
    const { amounts } = quote;
    expect(receipt).toMatchObject({
      signature,
      slot: local.harness.chain.slot,
      status: "success",
      unitsConsumed: BigInt(simulation.unitsConsumed),
      fee: 3n * 5_000n + 200n,
      // Every account existed: the keeper spent the fee alone.
      keeperSpent: 3n * 5_000n + 200n,
    });
    expect(Number.isNaN(Date.parse(receipt?.blockTime ?? ""))).toBe(false);
    const changeOf = (mint: string, owner: PublicKey) =>
      receipt?.changes.find((c) => c.account === ata(mint, owner).toBase58())?.change;
    expect(changeOf(CNGN, taker.publicKey)).toBe(-amounts.takerPays);
    expect(changeOf(CNGN, resolver.publicKey)).toBe(amounts.proceeds);
    expect(changeOf(USDC, resolver.publicKey)).toBe(-amounts.outputAmount);
    expect(changeOf(USDC, taker.publicKey)).toBe(amounts.received);
    expect(changeOf(USDC, new PublicKey(localSolana.treasury))).toBe(amounts.fee);
    expect(changeOf(USDC, keeper.publicKey)).toBe(amounts.gasFee);
    expect(receipt?.fills.map((f) => [f.from, f.mint, f.amount])).toEqual([
      [taker.publicKey.toBase58(), CNGN, amounts.proceeds],
      [resolver.publicKey.toBase58(), USDC, amounts.received],
      [resolver.publicKey.toBase58(), USDC, amounts.fee],
      [resolver.publicKey.toBase58(), USDC, amounts.gasFee],
    ]);

    local.harness.chain.advance(31);
    expect(isFinalized(await swapStatus(local.rpc, signature, lastValidBlockHeight))).toBe(false);
    local.harness.chain.advance(1);
    const finalized = await swapStatus(local.rpc, signature, lastValidBlockHeight);
    expect(finalized).toMatchObject({ state: "landed", confirmationStatus: "finalized" });
    expect(isFinalized(finalized)).toBe(true);
  });

  it("asks for a requote when the taker's source account is short or missing", async () => {
    const resolver = local.harness.accounts.resolvers[1] as Keypair;
    // taker:6 holds 1,000,000 cNGN (6 decimals): selling 2,000,000 is more than it has.
    const short = await signedSwap({
      taker: local.harness.accounts.takers[1] as Keypair,
      resolver,
      sellAmount: 2_000_000_000_000n,
      quoteId: "q_settle_short",
    });
    expect(await simulateSwap(local.rpc, short.raw)).toMatchObject({ ok: false, reason: "taker:insufficient_balance" });
    // Read before simulating, the taker's token accounts say the same.
    expect(await takerHolds(local.rpc, short.raw)).toBe(false);
    const enough = await signedSwap({
      taker: local.harness.accounts.takers[1] as Keypair,
      resolver,
      quoteId: "q_holds",
    });
    expect(await takerHolds(local.rpc, enough.raw)).toBe(true);
    // Sent anyway, it lands with its error: the keeper pays the fee and no token moves.
    expect(await sendSwap(local.rpc, short.raw)).toEqual({ status: "accepted" });
    expect(await swapStatus(local.rpc, short.signature, short.lastValidBlockHeight)).toEqual({
      state: "reverted",
      slot: local.harness.chain.slot,
      confirmationStatus: "confirmed",
      err: { InstructionError: [6, { Custom: 1 }] },
    });
    // Landed with its error, it is blamed leg by leg as its simulation was.
    expect(await swapFailureReason(local.rpc, short.raw, { InstructionError: [6, { Custom: 1 }] }, [])).toBe(
      "taker:insufficient_balance",
    );
    expect(await swapReceipt(local.rpc, short.signature)).toMatchObject({ status: "reverted", changes: [], fills: [] });
    const unfunded = localSolanaKeypair("test:settle-unfunded-taker");
    const missing = await signedSwap({ taker: unfunded, resolver, quoteId: "q_settle_missing" });
    expect(await takerHolds(local.rpc, missing.raw)).toBe(false);
    expect(await simulateSwap(local.rpc, missing.raw)).toMatchObject({
      ok: false,
      kind: "requote",
      reason: "taker:insufficient_balance",
    });
  });

  it("blames the resolver when it does not hold the output", async () => {
    const resolver = localSolanaKeypair("test:settle-empty-resolver");
    const { raw } = await signedSwap({
      taker: local.harness.accounts.takers[2] as Keypair,
      resolver,
      quoteId: "q_settle_no_output",
    });
    expect(await simulateSwap(local.rpc, raw)).toMatchObject({ ok: false, reason: "resolver:insufficient_balance" });
  });

  it("blames a frozen account on its party: the resolver's, struck as for a short one; the recipient's, the taker's", async () => {
    const taker = local.harness.accounts.takers[2] as Keypair;
    const resolver = local.harness.accounts.resolvers[2] as Keypair;
    const resolverUsdc = ata(USDC, resolver.publicKey);
    await setFrozen(resolverUsdc, USDC, true);
    try {
      const frozenSource = await signedSwap({ taker, resolver, quoteId: "q_settle_frozen_resolver" });
      expect(await simulateSwap(local.rpc, frozenSource.raw)).toMatchObject({
        ok: false,
        reason: "resolver:transfer_failed",
      });
      // Landed with that error, it is blamed the same way, from the chain's state of the accounts.
      expect(await sendSwap(local.rpc, frozenSource.raw)).toEqual({ status: "accepted" });
      const landed = await swapStatus(local.rpc, frozenSource.signature, frozenSource.lastValidBlockHeight);
      if (landed.state !== "reverted") throw new Error(`not reverted: ${landed.state}`);
      expect(await swapFailureReason(local.rpc, frozenSource.raw, landed.err, [])).toBe("resolver:transfer_failed");
    } finally {
      await setFrozen(resolverUsdc, USDC, false);
    }
    // The sale's destination, the resolver's cNGN account, frozen: its own too.
    const resolverCngn = ata(CNGN, resolver.publicKey);
    await setFrozen(resolverCngn, CNGN, true);
    try {
      const frozenDestination = await signedSwap({ taker, resolver, quoteId: "q_settle_frozen_sale" });
      expect(await simulateSwap(local.rpc, frozenDestination.raw)).toMatchObject({
        reason: "resolver:transfer_failed",
      });
    } finally {
      await setFrozen(resolverCngn, CNGN, false);
    }
    // The recipient the taker named (itself here) cannot take the output: the taker's.
    const takerUsdc = ata(USDC, taker.publicKey);
    await setFrozen(takerUsdc, USDC, true);
    try {
      const frozenRecipient = await signedSwap({ taker, resolver, quoteId: "q_settle_frozen_recipient" });
      expect(await simulateSwap(local.rpc, frozenRecipient.raw)).toMatchObject({ reason: "taker:recipient_refused" });
    } finally {
      await setFrozen(takerUsdc, USDC, false);
    }
  });

  it("blames a resolver whose signature slot the chain refuses, and only the resolver", async () => {
    const resolver = local.harness.accounts.resolvers[1] as Keypair;
    const { raw } = await signedSwap({
      taker: local.harness.accounts.takers[1] as Keypair,
      resolver,
      quoteId: "q_settle_resolver_signature",
    });
    const wire = readWire(raw);
    if (!wire) throw new Error("unreadable swap");
    const slot = wire.slotsOffset + wire.signers.indexOf(resolver.publicKey.toBase58()) * 64;
    const forged = Uint8Array.from(raw);
    forged[slot] = (forged[slot] ?? 0) ^ 1;
    expect(await simulateSwap(local.rpc, forged)).toMatchObject({ ok: false, reason: "resolver:invalid_signature" });
  });

  it("expires a swap whose blockhash aged out: a requote before sending, dropped once sent", async () => {
    const { raw, signature, lastValidBlockHeight } = await signedSwap({
      taker: local.harness.accounts.takers[3] as Keypair,
      resolver: local.harness.accounts.resolvers[3] as Keypair,
      quoteId: "q_settle_expired",
    });
    local.harness.chain.advance(151);
    expect(await simulateSwap(local.rpc, raw)).toMatchObject({ ok: false, reason: "taker:blockhash_expired" });
    // Without preflight the node answers the signature and the leader drops it.
    expect(await sendSwap(local.rpc, raw)).toEqual({ status: "accepted" });
    expect(local.harness.chain.slot).toBeGreaterThan(lastValidBlockHeight);
    expect(await swapStatus(local.rpc, signature, lastValidBlockHeight)).toEqual({ state: "dropped" });
    expect(await swapStatus(local.rpc, signature, local.harness.chain.slot)).toEqual({ state: "pending" });
  });

  it("reads the status of many swaps after one read of the height, 256 to a call", async () => {
    const { raw, signature } = await signedSwap({
      taker: local.harness.accounts.takers[2] as Keypair,
      resolver: local.harness.accounts.resolvers[2] as Keypair,
      quoteId: "q_settle_statuses",
    });
    expect(await sendSwap(local.rpc, raw)).toEqual({ status: "accepted" });
    local.harness.chain.advance(1);
    const landed = { signature, lastValidBlockHeight: Number.MAX_SAFE_INTEGER };
    // Never sent: dropped once the height is past their last valid one, pending before.
    const unknown = (n: number, lastValidBlockHeight: number) => ({
      signature: base58.encode(new Uint8Array(64).fill(n)),
      lastValidBlockHeight,
    });
    const swaps = [
      ...Array.from({ length: 150 }, (_, i) => unknown(i + 1, 0)),
      landed,
      ...Array.from({ length: 150 }, (_, i) => unknown(i + 151, Number.MAX_SAFE_INTEGER)),
    ];
    const counted = countingFetch();
    try {
      const statuses = await swapStatuses(local.rpc, swaps);
      expect(counted.methods).toEqual(["getBlockHeight", "getSignatureStatuses", "getSignatureStatuses"]);
      expect(statuses.slice(0, 150).every((s) => s.state === "dropped")).toBe(true);
      expect(statuses[150]).toMatchObject({ state: "landed" });
      expect(statuses.slice(151).every((s) => s.state === "pending")).toBe(true);
    } finally {
      counted.restore();
    }
  });

  it("signs only as the fee payer, and a signature the chain refuses is a failed simulation", async () => {
    const { raw } = await signedSwap({
      taker: local.harness.accounts.takers[0] as Keypair,
      resolver: local.harness.accounts.resolvers[0] as Keypair,
      quoteId: "q_settle_bad_signature",
    });
    const takerSigned = Buffer.from(raw).toString("base64");
    expect(() => signAsFeePayer(takerSigned, local.harness.accounts.takers[0] as Keypair)).toThrow(
      /not the transaction's fee payer/,
    );
    const forged = Uint8Array.from(raw);
    forged[1] = (forged[1] ?? 0) ^ 1; // the first byte of the keeper's signature, after the count
    expect(await simulateSwap(local.rpc, forged)).toMatchObject({
      ok: false,
      reason: "relay:simulation_failed:signature_verification",
    });
  });

  it("reports an RPC that does not answer", async () => {
    const { raw, signature } = await signedSwap({
      taker: local.harness.accounts.takers[0] as Keypair,
      resolver: local.harness.accounts.resolvers[0] as Keypair,
      quoteId: "q_settle_down",
    });
    await expect(simulateSwap(DOWN, raw)).rejects.toBeInstanceOf(ChainUnavailableError);
    await expect(swapStatus(DOWN, signature, 0)).rejects.toBeInstanceOf(ChainUnavailableError);
    await expect(swapReceipt(DOWN, signature)).rejects.toBeInstanceOf(ChainUnavailableError);
    expect(await sendSwap(DOWN, raw)).toMatchObject({ status: "unreachable" });
  });
});

describe("keeperKeypairFromSecret", () => {
  const keeper = localSolanaKeypair("keeper");

  it("reads base58 and solana-keygen's JSON array", () => {
    const base58Secret = base58.encode(keeper.secretKey);
    expect(keeperKeypairFromSecret(base58Secret).publicKey.toBase58()).toBe(keeper.publicKey.toBase58());
    const json = JSON.stringify(Array.from(keeper.secretKey));
    expect(keeperKeypairFromSecret(` ${json}\n`).publicKey.toBase58()).toBe(keeper.publicKey.toBase58());
  });

  it("refuses anything else, saying why", () => {
    expect(() => keeperKeypairFromSecret("0x1234")).toThrow(/neither base58 nor a JSON array/);
    expect(() => keeperKeypairFromSecret(base58.encode(keeper.secretKey.subarray(0, 32)))).toThrow(/32 bytes/);
    expect(() => keeperKeypairFromSecret("[1, 2, 300]")).toThrow(/integers 0–255/);
    expect(() => keeperKeypairFromSecret("[1, 2")).toThrow(/not a JSON array/);
    const mismatched = Uint8Array.from(keeper.secretKey);
    mismatched.set(localSolanaKeypair("treasury").publicKey.toBytes(), 32);
    expect(() => keeperKeypairFromSecret(base58.encode(mismatched))).toThrow(/public half/);
  });
});
