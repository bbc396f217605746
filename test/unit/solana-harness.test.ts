import { base58 } from "@scure/base";
import {
  createTransferCheckedInstruction,
  getAccount,
  getAssociatedTokenAddressSync,
  getMint,
} from "@solana/spl-token";
import {
  AddressLookupTableProgram,
  ComputeBudgetProgram,
  Connection,
  type Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SendTransactionError,
  SystemProgram,
  Transaction,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localSolanaKeypair } from "../../scripts/lib/solana-harness/accounts";
import { type SolanaHarness, startSolanaHarness } from "../../scripts/lib/solana-harness/server";

let harness: SolanaHarness;
let connection: Connection;

beforeAll(async () => {
  // Slots move only when a test advances them, so slot and confirmation counts are exact; the clock
  // itself is tested on a harness of its own below.
  harness = await startSolanaHarness({ port: 0, slotMs: 3_600_000 });
  connection = new Connection(harness.url, "confirmed");
});

afterAll(async () => {
  await harness?.stop();
});

const keeper = () => harness.accounts.keeper;
const resolver = () => harness.accounts.resolvers[0] as Keypair;
const taker = () => harness.accounts.takers[0] as Keypair;
const usdc = () => harness.accounts.mints.USDC.publicKey;

async function rpc(method: string, params: unknown[] = []): Promise<Record<string, unknown>> {
  const res = await fetch(harness.url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return (await res.json()) as Record<string, unknown>;
}

/** A signed transaction's wire bytes, with the processed blockhash unless one is given. */
async function signed(instructions: TransactionInstruction[], signers: Keypair[], blockhash?: string): Promise<Buffer> {
  const recentBlockhash = blockhash ?? (await connection.getLatestBlockhash("processed")).blockhash;
  const tx = new Transaction({ feePayer: signers[0]?.publicKey, recentBlockhash }).add(...instructions);
  tx.sign(...signers);
  return tx.serialize();
}

function solTransfer(from: Keypair, to: PublicKey, lamports: number): TransactionInstruction {
  return SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to, lamports });
}

/** Polls getSignatureStatuses until the transaction reaches `status` (or later). */
async function waitFor(signature: string, status: "confirmed" | "finalized", timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { value } = await connection.getSignatureStatuses([signature]);
    const s = value[0];
    if (s && (s.confirmationStatus === status || s.confirmationStatus === "finalized")) return s;
    if (Date.now() > deadline) throw new Error(`${signature} not ${status}: ${JSON.stringify(s)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function sendError(raw: Buffer): Promise<SendTransactionError> {
  try {
    await connection.sendRawTransaction(raw);
  } catch (err) {
    if (err instanceof SendTransactionError) return err;
    throw err;
  }
  throw new Error("the transaction was accepted");
}

describe("the local Solana chain over JSON-RPC", () => {
  it("answers the cluster methods an unmodified Connection calls", async () => {
    const latest = await connection.getLatestBlockhash("processed");
    const slot = await connection.getSlot("processed");
    expect(latest.lastValidBlockHeight).toBe(slot + 150);
    expect(await connection.getBlockHeight("processed")).toBe(slot);
    expect((await connection.isBlockhashValid(latest.blockhash)).value).toBe(true);
    expect(await connection.getGenesisHash()).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect((await connection.getVersion())["solana-core"]).toContain("litesvm");
    expect(await connection.getMinimumBalanceForRentExemption(165)).toBe(2_039_280);
    const epoch = await connection.getEpochInfo("processed");
    expect(epoch).toMatchObject({ absoluteSlot: slot, epoch: 0, slotsInEpoch: 432_000 });
    // Finalized is 32 slots behind, and so is the blockhash a client gets at that commitment.
    harness.chain.advance(40);
    const finalized = await connection.getLatestBlockhash("finalized");
    expect(finalized.lastValidBlockHeight).toBe((await connection.getSlot("processed")) - 32 + 150);
    expect(await fetch(`${harness.url}/health`).then((r) => r.text())).toBe("ok");
  });

  it("seeds the local accounts: SOL, the two mints and a million of each token", async () => {
    expect(await connection.getBalance(resolver().publicKey)).toBe(10 * LAMPORTS_PER_SOL);
    expect(await connection.getBalance(taker().publicKey)).toBe(10 * LAMPORTS_PER_SOL);
    expect(await connection.getBalance(keeper().publicKey)).toBeGreaterThan(100 * LAMPORTS_PER_SOL);
    for (const mintKey of [harness.accounts.mints.USDC, harness.accounts.mints.cNGN]) {
      const mint = await getMint(connection, mintKey.publicKey);
      expect(mint.decimals).toBe(6);
      expect(mint.mintAuthority?.toBase58()).toBe(harness.accounts.treasury.publicKey.toBase58());
      const ata = getAssociatedTokenAddressSync(mintKey.publicKey, harness.accounts.takers[3]?.publicKey as PublicKey);
      expect((await connection.getTokenAccountBalance(ata)).value).toMatchObject({
        amount: "1000000000000",
        decimals: 6,
        uiAmountString: "1000000",
      });
    }
    const parsed = await connection.getParsedTokenAccountsByOwner(taker().publicKey, { mint: usdc() });
    expect(parsed.value).toHaveLength(1);
    expect(parsed.value[0]?.account.data.parsed.info.tokenAmount.uiAmount).toBe(1_000_000);
    const raw = await connection.getTokenAccountsByOwner(keeper().publicKey, { mint: usdc() });
    expect(raw.value.map((a) => a.pubkey.toBase58())).toEqual([
      getAssociatedTokenAddressSync(usdc(), keeper().publicKey).toBase58(),
    ]);
  });

  it("lands a SOL transfer sent raw, confirmed at once, with its fee and metadata", async () => {
    const to = localSolanaKeypair("test:sol-receiver").publicKey;
    const before = await connection.getBalance(taker().publicKey);
    const signature = await connection.sendRawTransaction(
      await signed([solTransfer(taker(), to, 1_234_567)], [taker()]),
    );
    const status = await waitFor(signature, "confirmed");
    expect(status).toMatchObject({ err: null, confirmationStatus: "confirmed" });
    expect(await connection.getBalance(to)).toBe(1_234_567);
    expect(await connection.getBalance(taker().publicKey)).toBe(before - 1_234_567 - 5_000);

    const tx = await connection.getTransaction(signature, {
      commitment: "confirmed",
      maxSupportedTransactionVersion: 0,
    });
    expect(tx?.slot).toBe(status.slot);
    expect(tx?.blockTime).toBeCloseTo(Date.now() / 1000, -1);
    expect(tx?.meta).toMatchObject({ err: null, fee: 5_000, computeUnitsConsumed: 150 });
    expect(tx?.meta?.logMessages).toContain("Program 11111111111111111111111111111111 success");
    expect(tx?.transaction.message.staticAccountKeys[0]?.toBase58()).toBe(taker().publicKey.toBase58());
  });

  it("moves tokens with transferChecked to the base unit, the keeper paying fee and priority fee", async () => {
    const from = getAssociatedTokenAddressSync(usdc(), resolver().publicKey);
    const to = getAssociatedTokenAddressSync(usdc(), taker().publicKey);
    const [fromBefore, toBefore] = await Promise.all([getAccount(connection, from), getAccount(connection, to)]);
    const keeperBefore = await connection.getBalance(keeper().publicKey);
    const instructions = [
      ComputeBudgetProgram.setComputeUnitLimit({ units: 200_000 }),
      ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 1_000 }),
      createTransferCheckedInstruction(from, usdc(), to, resolver().publicKey, 1_580_000_001n, 6),
    ];
    const signature = await connection.sendRawTransaction(await signed(instructions, [keeper(), resolver()]));
    await waitFor(signature, "confirmed");

    expect((await connection.getTokenAccountBalance(from)).value.amount).toBe(
      String(fromBefore.amount - 1_580_000_001n),
    );
    expect((await connection.getTokenAccountBalance(to)).value.amount).toBe(String(toBefore.amount + 1_580_000_001n));
    // Two signatures and ceil(1,000 µlamports × 200,000 CU / 10^6) = 200 lamports of priority.
    expect(await connection.getBalance(keeper().publicKey)).toBe(keeperBefore - 10_200);

    const tx = await connection.getParsedTransaction(signature, {
      commitment: "confirmed",
      maxSupportedTransactionVersion: 0,
    });
    expect(tx?.meta?.fee).toBe(10_200);
    const post = tx?.meta?.postTokenBalances?.find((b) => b.owner === taker().publicKey.toBase58());
    expect(post).toMatchObject({
      mint: usdc().toBase58(),
      uiTokenAmount: { amount: String(toBefore.amount + 1_580_000_001n) },
    });
    expect(tx?.meta?.preTokenBalances).toHaveLength(2);
    expect(tx?.transaction.message.accountKeys[0]).toMatchObject({ signer: true, writable: true });
    const fees = await connection.getRecentPrioritizationFees({ lockedWritableAccounts: [to] });
    expect(fees.some((f) => f.prioritizationFee === 1_000)).toBe(true);
  });

  it("accepts a blockhash 140 slots old and refuses one 151 slots old", async () => {
    const receiver = localSolanaKeypair("test:window").publicKey;
    const old = (await connection.getLatestBlockhash("processed")).blockhash;
    harness.chain.advance(140);
    const inWindow = await connection.sendRawTransaction(
      await signed([solTransfer(taker(), receiver, 1_000_000)], [taker()], old),
    );
    expect((await waitFor(inWindow, "confirmed")).err).toBeNull();

    const expiring = (await connection.getLatestBlockhash("processed")).blockhash;
    harness.chain.advance(151);
    expect((await connection.isBlockhashValid(expiring)).value).toBe(false);
    const raw = await signed([solTransfer(taker(), receiver, 2_000_000)], [taker()], expiring);
    expect((await sendError(raw)).message).toContain("Blockhash not found");
    // Without preflight the signature is answered, and the transaction never lands.
    const dropped = await connection.sendRawTransaction(raw, { skipPreflight: true });
    expect((await connection.getSignatureStatuses([dropped], { searchTransactionHistory: true })).value[0]).toBeNull();
    expect(await connection.getBalance(receiver)).toBe(1_000_000);
  });

  it("answers a resend of a landed transaction as already processed", async () => {
    const raw = await signed([solTransfer(taker(), localSolanaKeypair("test:resend").publicKey, 1_000_000)], [taker()]);
    const signature = await connection.sendRawTransaction(raw);
    await waitFor(signature, "confirmed");
    expect((await sendError(raw)).message).toContain("This transaction has already been processed");
    expect(await connection.sendRawTransaction(raw, { skipPreflight: true })).toBe(signature);
    const body = await rpc("sendTransaction", [raw.toString("base64"), { encoding: "base64" }]);
    expect(body.error).toMatchObject({ code: -32002, data: { err: "AlreadyProcessed" } });
    expect(await connection.getBalance(localSolanaKeypair("test:resend").publicKey)).toBe(1_000_000);
  });

  it("takes base58 transactions, and refuses a bad signature with -32003", async () => {
    const raw = await signed([solTransfer(taker(), localSolanaKeypair("test:b58").publicKey, 1_000_000)], [taker()]);
    const body = await rpc("sendTransaction", [base58.encode(raw)]);
    expect(typeof body.result).toBe("string");
    const forged = Buffer.from(raw);
    forged[10] = (forged[10] ?? 0) ^ 1;
    expect((await rpc("sendTransaction", [forged.toString("base64"), { encoding: "base64" }])).error).toMatchObject({
      code: -32003,
    });
  });

  it("reports finalized 32 slots after landing, and getTransaction at finalized only then", async () => {
    const signature = await connection.sendRawTransaction(
      await signed([solTransfer(taker(), localSolanaKeypair("test:final").publicKey, 1_000_000)], [taker()]),
    );
    const landed = await waitFor(signature, "confirmed");
    expect(await connection.getTransaction(signature, { commitment: "finalized" })).toBeNull();
    harness.chain.advance(31);
    expect((await connection.getSignatureStatuses([signature])).value[0]).toMatchObject({
      confirmationStatus: "confirmed",
      confirmations: 31,
    });
    harness.chain.advance(1);
    expect((await connection.getSignatureStatuses([signature])).value[0]).toMatchObject({
      slot: landed.slot,
      confirmationStatus: "finalized",
      confirmations: null,
    });
    expect((await connection.getTransaction(signature, { commitment: "finalized" }))?.slot).toBe(landed.slot);
  });

  it("lists an address's transactions newest first, with memos and failures, paged (getSignaturesForAddress)", async () => {
    const owner = localSolanaKeypair("test:history");
    const memo = new TransactionInstruction({
      programId: new PublicKey("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr"),
      keys: [],
      data: Buffer.from("q_history"),
    });
    const send = async (raw: Buffer, skipPreflight = false) => {
      const signature = await connection.sendRawTransaction(raw, { skipPreflight });
      await waitFor(signature, "confirmed");
      return signature;
    };
    const first = await send(await signed([solTransfer(taker(), owner.publicKey, 3_000_000)], [taker()]));
    const second = await send(await signed([solTransfer(taker(), owner.publicKey, 1_000_000), memo], [taker()]));
    // The owner cannot send a whole SOL: it lands failed, the taker paying its fee.
    const third = await send(
      await signed([solTransfer(owner, taker().publicKey, LAMPORTS_PER_SOL)], [taker(), owner]),
      true,
    );

    const history = await connection.getSignaturesForAddress(owner.publicKey);
    expect(history.map((h) => h.signature)).toEqual([third, second, first]);
    expect(history[0]?.err).not.toBeNull();
    expect(history[1]).toMatchObject({ err: null, memo: "[9] q_history", confirmationStatus: "confirmed" });
    expect(history[2]).toMatchObject({ err: null, memo: null });
    expect(history[1]?.blockTime).toBe(harness.chain.blockTime);
    const page = await connection.getSignaturesForAddress(owner.publicKey, { before: third, limit: 1 });
    expect(page.map((h) => h.signature)).toEqual([second]);
    const since = await connection.getSignaturesForAddress(owner.publicKey, { until: first });
    expect(since.map((h) => h.signature)).toEqual([third, second]);
    // Finalized only 32 slots later, like getTransaction.
    expect(await connection.getSignaturesForAddress(owner.publicKey, {}, "finalized")).toEqual([]);
    expect((await rpc("getSignaturesForAddress", [owner.publicKey.toBase58(), { limit: 1001 }])).error).toMatchObject({
      code: -32602,
    });
  });

  it("simulates a failing transfer: err and logs, and refuses it in preflight with them", async () => {
    const from = getAssociatedTokenAddressSync(usdc(), taker().publicKey);
    const to = getAssociatedTokenAddressSync(usdc(), resolver().publicKey);
    const tooMuch = createTransferCheckedInstruction(from, usdc(), to, taker().publicKey, 10n ** 15n, 6);
    const raw = await signed([tooMuch], [taker()]);
    const sim = await connection.simulateTransaction(Transaction.from(raw));
    expect(sim.value.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
    expect(sim.value.logs?.join("\n")).toContain("insufficient funds");

    const body = await rpc("sendTransaction", [raw.toString("base64"), { encoding: "base64" }]);
    expect(body.error).toMatchObject({
      code: -32002,
      message: "Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1",
      data: { err: { InstructionError: [0, { Custom: 1 }] } },
    });
    expect((await sendError(raw)).logs?.join("\n")).toContain("insufficient funds");

    // Sent without preflight it lands, failed, and pays its fee.
    const before = await connection.getBalance(taker().publicKey);
    const signature = await connection.sendRawTransaction(raw, { skipPreflight: true });
    expect((await waitFor(signature, "confirmed")).err).toEqual({ InstructionError: [0, { Custom: 1 }] });
    expect(await connection.getBalance(taker().publicKey)).toBe(before - 5_000);
  });

  it("lands a v0 transaction through an address lookup table, answered only to v0-aware clients", async () => {
    const payer = harness.accounts.takers[2] as Keypair;
    const receiver = localSolanaKeypair("test:v0").publicKey;
    const [create, table] = AddressLookupTableProgram.createLookupTable({
      authority: payer.publicKey,
      payer: payer.publicKey,
      recentSlot: await connection.getSlot("finalized"),
    });
    const extend = AddressLookupTableProgram.extendLookupTable({
      lookupTable: table,
      authority: payer.publicKey,
      payer: payer.publicKey,
      addresses: [receiver],
    });
    await waitFor(await connection.sendRawTransaction(await signed([create, extend], [payer])), "confirmed");
    harness.chain.advance(1); // a table's new addresses serve from the next slot
    const lookup = (await connection.getAddressLookupTable(table)).value;
    expect(lookup?.state.addresses.map((a) => a.toBase58())).toEqual([receiver.toBase58()]);

    const message = new TransactionMessage({
      payerKey: payer.publicKey,
      recentBlockhash: (await connection.getLatestBlockhash("processed")).blockhash,
      instructions: [solTransfer(payer, receiver, 3_000_000)],
    }).compileToV0Message(lookup ? [lookup] : []);
    const tx = new VersionedTransaction(message);
    tx.sign([payer]);
    const signature = await connection.sendTransaction(tx);
    await waitFor(signature, "confirmed");
    expect(await connection.getBalance(receiver)).toBe(3_000_000);

    const landed = await connection.getTransaction(signature, {
      commitment: "confirmed",
      maxSupportedTransactionVersion: 0,
    });
    expect(landed?.version).toBe(0);
    expect(landed?.meta?.loadedAddresses?.writable.map((a) => a.toBase58())).toEqual([receiver.toBase58()]);
    // The payer and the System program from the message, the receiver from the table.
    expect(landed?.meta?.postBalances).toEqual([expect.any(Number), 1, 3_000_000]);
    const legacyClient = await rpc("getTransaction", [signature, { commitment: "confirmed" }]);
    expect(legacyClient.error).toMatchObject({ code: -32015 });
  });

  it("airdrops from the faucet, equal requests as distinct transactions", async () => {
    const to = localSolanaKeypair("test:airdrop").publicKey;
    const first = await connection.requestAirdrop(to, LAMPORTS_PER_SOL);
    const second = await connection.requestAirdrop(to, LAMPORTS_PER_SOL);
    expect(second).not.toBe(first);
    await waitFor(second, "confirmed");
    expect(await connection.getBalance(to)).toBe(2 * LAMPORTS_PER_SOL);
  });

  it("prices a message with getFeeForMessage, null once its blockhash expired", async () => {
    const tx = new Transaction({
      feePayer: keeper().publicKey,
      recentBlockhash: (await connection.getLatestBlockhash("processed")).blockhash,
    }).add(
      ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 5_000 }),
      solTransfer(keeper(), PublicKey.default, 1),
    );
    // No limit set: 3,000 CU for each builtin instruction, so ceil(5,000 × 6,000 / 10^6) = 30.
    expect((await connection.getFeeForMessage(tx.compileMessage(), "processed")).value).toBe(5_030);
    harness.chain.advance(151);
    expect((await connection.getFeeForMessage(tx.compileMessage(), "processed")).value).toBeNull();
  });

  it("frames JSON-RPC: batches, notifications, parse errors and unknown methods", async () => {
    const post = (body: string) =>
      fetch(harness.url, { method: "POST", headers: { "content-type": "application/json" }, body }).then((r) =>
        r.text(),
      );
    const batch = JSON.parse(
      await post(
        JSON.stringify([
          { jsonrpc: "2.0", id: 1, method: "getHealth" },
          { jsonrpc: "2.0", method: "getSlot" },
          { jsonrpc: "2.0", id: "b", method: "getNothing" },
        ]),
      ),
    );
    expect(batch).toEqual([
      { jsonrpc: "2.0", id: 1, result: "ok" },
      { jsonrpc: "2.0", id: "b", error: { code: -32601, message: "Method not found" } },
    ]);
    expect(JSON.parse(await post("{nope"))).toMatchObject({ error: { code: -32700 } });
    expect(JSON.parse(await post("[]"))).toMatchObject({ error: { code: -32600 } });
    expect(await post(JSON.stringify({ jsonrpc: "2.0", method: "getSlot" }))).toBe("");
    expect((await rpc("getBalance", ["not-a-key"])).error).toMatchObject({ code: -32602 });
  });
});

describe("the local Solana chain's clock", () => {
  it("moves a slot per slot time with wall-clock block times, finalizing without help", async () => {
    const fast = await startSolanaHarness({ port: 0, slotMs: 20 });
    try {
      const conn = new Connection(fast.url, "confirmed");
      const payer = fast.accounts.takers[1] as Keypair;
      const { blockhash } = await conn.getLatestBlockhash("processed");
      const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash }).add(
        solTransfer(payer, localSolanaKeypair("test:clock").publicKey, 1_000_000),
      );
      tx.sign(payer);
      const started = Date.now();
      const signature = await conn.sendRawTransaction(tx.serialize());
      for (;;) {
        const status = (await conn.getSignatureStatuses([signature])).value[0];
        if (status?.confirmationStatus === "finalized") break;
        if (Date.now() - started > 5_000) throw new Error(`not finalized: ${JSON.stringify(status)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(Date.now() - started).toBeGreaterThanOrEqual(32 * 20 - 20);
      const landed = await conn.getTransaction(signature, { commitment: "finalized" });
      expect(Math.abs((landed?.blockTime ?? 0) - Date.now() / 1000)).toBeLessThan(5);
      expect(fast.svm.getClock().unixTimestamp).toBeGreaterThanOrEqual(BigInt(landed?.blockTime ?? 0));
    } finally {
      await fast.stop();
    }
  });
});

describe("the local Solana chain's JSON, as strict clients read it", () => {
  it("writes a rent-exempt account's rentEpoch as u64::MAX exactly, and getVersion's feature-set", async () => {
    const post = async (method: string, params: unknown[]) =>
      (
        await fetch(harness.url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
        })
      ).text();
    const account = await post("getAccountInfo", [usdc().toBase58(), { encoding: "base64" }]);
    expect(account).toContain('"rentEpoch":18446744073709551615');
    const version = JSON.parse(await post("getVersion", [])) as { result: Record<string, unknown> };
    expect(version.result["feature-set"]).toBeTypeOf("number");
  });
});
