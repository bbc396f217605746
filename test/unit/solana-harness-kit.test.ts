/**
 * The local Solana chain read by @solana/kit, a strict client: every method the harness serves (METHODS of
 * scripts/lib/solana-harness/rpc.ts) decodes with kit, in the shape the Solana JSON-RPC documents, with
 * u64s exact as bigints (docs/local-stack.md, "The local Solana chain").
 */
import { createRequire } from "node:module";
import { base58, base64 } from "@scure/base";
import {
  AccountRole,
  type Address,
  address,
  appendTransactionMessageInstructions,
  blockhash,
  compileTransaction,
  compressTransactionMessageUsingAddressLookupTables,
  createDefaultRpcTransport,
  createKeyPairSignerFromBytes,
  createSolanaRpcFromTransport,
  createTransactionMessage,
  decompileTransactionMessageFetchingLookupTables,
  estimateAndSetResourceLimitsFactory,
  estimateResourceLimitsFactory,
  fetchEncodedAccount,
  fetchJsonParsedAccount,
  generateKeyPairSigner,
  getBase58Decoder,
  getBase64Decoder,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getSignatureFromTransaction,
  getTransactionDecoder,
  getTransactionEncoder,
  type Instruction,
  isSolanaError,
  type KeyPairSigner,
  lamports,
  pipe,
  type SignatureBytes,
  SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_MIN_CONTEXT_SLOT_NOT_REACHED,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_UNSUPPORTED_TRANSACTION_VERSION,
  SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED,
  setTransactionMessageComputeUnitLimit,
  setTransactionMessageComputeUnitPrice,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  signature,
  signTransaction,
  type Transaction,
  type TransactionMessageBytesBase64,
} from "@solana/kit";
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
} from "@solana/spl-token";
import {
  AddressLookupTableProgram,
  type Keypair,
  PublicKey,
  SystemProgram,
  type TransactionInstruction,
} from "@solana/web3.js";
import type { LiteSVM } from "litesvm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localSolanaKeypair } from "../../scripts/lib/solana-harness/accounts";
import { mintData, tokenAccountData } from "../../scripts/lib/solana-harness/genesis";
import { METHODS } from "../../scripts/lib/solana-harness/rpc";
import { type SolanaHarness, startSolanaHarness } from "../../scripts/lib/solana-harness/server";

const LITESVM_VERSION: string = createRequire(import.meta.url)("litesvm/package.json").version;
const U64_MAX = 2n ** 64n - 1n;
const SOL = 1_000_000_000n;
const SYSTEM = "11111111111111111111111111111111";
const TOKEN = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
const TOKEN_ACCOUNT_RENT = 2_039_280n;
const MINT_RENT = 1_461_600n;

let harness: SolanaHarness;
/** The methods this file has called, to check it calls every one the harness serves. */
const called = new Set<string>();

/**
 * What `createSolanaRpc(url)` builds, kit's default transport under kit's Solana API, with the name of
 * each method noted on its way.
 */
function kitRpc(url: string) {
  const transport = createDefaultRpcTransport({ url });
  const noting: typeof transport = (request) => {
    called.add((request.payload as { method: string }).method);
    return transport(request);
  };
  return createSolanaRpcFromTransport(noting);
}
let rpc: ReturnType<typeof kitRpc>;

const slot = () => BigInt(harness.chain.slot);
const usdc = () => harness.accounts.mints.USDC.publicKey;
const ata = (owner: PublicKey, mint = usdc()) => getAssociatedTokenAddressSync(mint, owner, true);
const at = (key: PublicKey): Address => address(key.toBase58());

function bytesOf(key: PublicKey): Uint8Array {
  const account = harness.chain.read(key.toBase58());
  if (!account) throw new Error(`no account ${key.toBase58()}`);
  return account.data;
}

/** A web3.js instruction as kit takes it. */
function kitInstruction(ix: TransactionInstruction): Instruction {
  return {
    programAddress: at(ix.programId),
    accounts: ix.keys.map((key) => ({
      address: at(key.pubkey),
      role: key.isSigner
        ? key.isWritable
          ? AccountRole.WRITABLE_SIGNER
          : AccountRole.READONLY_SIGNER
        : key.isWritable
          ? AccountRole.WRITABLE
          : AccountRole.READONLY,
    })),
    data: Uint8Array.from(ix.data),
  };
}

function transfer(from: Address, to: PublicKey, amount: bigint): TransactionInstruction {
  return SystemProgram.transfer({ fromPubkey: new PublicKey(from), toPubkey: to, lamports: amount });
}

function signerOf(keypair: Keypair): Promise<KeyPairSigner> {
  return createKeyPairSignerFromBytes(keypair.secretKey);
}

/** A message's bytes as getFeeForMessage takes them. */
function messageBase64(draft: Parameters<typeof compileTransaction>[0]): TransactionMessageBytesBase64 {
  return getBase64Decoder().decode(compileTransaction(draft).messageBytes) as TransactionMessageBytesBase64;
}

/** The confirmed blockhash and its last valid block height, or `hash` in its place. */
async function lifetime(hash?: string) {
  const latest = (await rpc.getLatestBlockhash({ commitment: "confirmed" }).send()).value;
  return hash ? { ...latest, blockhash: blockhash(hash) } : latest;
}

/** A legacy transaction message paid by `payer`, on the confirmed blockhash unless one is given. */
async function message(payer: Address, instructions: TransactionInstruction[], hash?: string) {
  const life = await lifetime(hash);
  return pipe(
    createTransactionMessage({ version: "legacy" }),
    (m) => setTransactionMessageFeePayer(payer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(life, m),
    (m) => appendTransactionMessageInstructions(instructions.map(kitInstruction), m),
  );
}

/** The same as a v0 message, which may load accounts from lookup tables. */
async function v0Message(payer: Address, instructions: TransactionInstruction[]) {
  const life = await lifetime();
  return pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(payer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(life, m),
    (m) => appendTransactionMessageInstructions(instructions.map(kitInstruction), m),
  );
}

function sign(compiled: Transaction, ...signers: KeyPairSigner[]) {
  return signTransaction(
    signers.map((s) => s.keyPair),
    compiled,
  );
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error("the call succeeded");
}

/** Writes an account straight into the chain's state, as its genesis does. */
function putAccount(key: PublicKey, amount: bigint, owner: string, data: Uint8Array): void {
  harness.svm.setAccount({
    address: key.toBase58(),
    lamports: amount,
    programAddress: owner,
    executable: false,
    data,
    space: BigInt(data.length),
  } as unknown as Parameters<LiteSVM["setAccount"]>[0]);
}

/** A token amount of 6 decimals as kit reads it: base units as a string, the decimal forms beside. */
function tokenAmount(amount: bigint, uiAmountString: string) {
  return { amount: amount.toString(), decimals: 6, uiAmount: Number(uiAmountString), uiAmountString };
}

beforeAll(async () => {
  // Slots move only when a test advances them, so slots and confirmations are exact.
  harness = await startSolanaHarness({ port: 0, slotMs: 3_600_000 });
  harness.chain.advance(50);
  rpc = kitRpc(harness.url);
});

afterAll(async () => {
  await harness?.stop();
});

describe("the local Solana chain read by @solana/kit", () => {
  it("answers the cluster methods: health, version with its feature-set, slots, epochs, blockhashes, rent", async () => {
    const now = slot();
    expect(await rpc.getHealth().send()).toBe("ok");
    const version = await rpc.getVersion().send();
    expect(version).toEqual({ "solana-core": `litesvm/${LITESVM_VERSION}`, "feature-set": 0 });
    expect(await rpc.getGenesisHash().send()).toBe(harness.chain.genesisHash);
    expect(await rpc.getSlot({ commitment: "processed" }).send()).toBe(now);
    // Finalized is 32 slots behind (kit's own default is confirmed).
    expect(await rpc.getSlot({ commitment: "finalized" }).send()).toBe(now - 32n);
    expect(await rpc.getSlot().send()).toBe(now);
    expect(await rpc.getBlockHeight({ commitment: "confirmed" }).send()).toBe(now);
    expect(await rpc.getTransactionCount().send()).toBe(0n);
    expect(await rpc.getEpochInfo({ commitment: "processed" }).send()).toEqual({
      absoluteSlot: now,
      blockHeight: now,
      epoch: 0n,
      slotIndex: now,
      slotsInEpoch: 432_000n,
      transactionCount: 0n,
    });
    expect(await rpc.getEpochSchedule().send()).toEqual({
      slotsPerEpoch: 432_000n,
      leaderScheduleSlotOffset: 432_000n,
      warmup: false,
      firstNormalEpoch: 0n,
      firstNormalSlot: 0n,
    });
    expect(await rpc.getMinimumBalanceForRentExemption(165n).send()).toBe(TOKEN_ACCOUNT_RENT);

    const latest = await rpc.getLatestBlockhash({ commitment: "processed" }).send();
    expect(latest).toEqual({
      context: { slot: now },
      value: { blockhash: harness.chain.latestBlockhash("processed").blockhash, lastValidBlockHeight: now + 150n },
    });
    expect(await rpc.getLatestBlockhash({ commitment: "finalized" }).send()).toEqual({
      context: { slot: now - 32n },
      value: {
        blockhash: harness.chain.latestBlockhash("finalized").blockhash,
        lastValidBlockHeight: now - 32n + 150n,
      },
    });
    expect(await rpc.isBlockhashValid(latest.value.blockhash).send()).toEqual({ context: { slot: now }, value: true });
    expect((await rpc.isBlockhashValid(blockhash(SYSTEM)).send()).value).toBe(false);
  });

  it("reads a token account and a mint in base64, base58 and jsonParsed, and kit's account helpers decode them", async () => {
    const owner = harness.accounts.takers[3]?.publicKey as PublicKey;
    const tokenAccount = ata(owner);
    const missing = localSolanaKeypair("kit:missing").publicKey;
    const treasury = harness.accounts.treasury.publicKey.toBase58();
    const context = { slot: slot() };
    const tokenBase64 = {
      data: [base64.encode(bytesOf(tokenAccount)), "base64"],
      executable: false,
      lamports: TOKEN_ACCOUNT_RENT,
      owner: TOKEN,
      rentEpoch: U64_MAX,
      space: 165n,
    };
    const mintBase64 = {
      ...tokenBase64,
      data: [base64.encode(bytesOf(usdc())), "base64"],
      lamports: MINT_RENT,
      space: 82n,
    };
    const tokenParsed = {
      ...tokenBase64,
      data: {
        program: "spl-token",
        parsed: {
          type: "account",
          info: {
            isNative: false,
            mint: usdc().toBase58(),
            owner: owner.toBase58(),
            state: "initialized",
            tokenAmount: tokenAmount(1_000_000_000_000n, "1000000"),
          },
        },
        space: 165n,
      },
    };
    const mintParsed = {
      ...mintBase64,
      data: {
        program: "spl-token",
        parsed: {
          type: "mint",
          info: {
            decimals: 6,
            freezeAuthority: treasury,
            isInitialized: true,
            mintAuthority: treasury,
            supply: "8000000000000",
          },
        },
        space: 82n,
      },
    };

    expect(await rpc.getAccountInfo(at(tokenAccount), { encoding: "base64" }).send()).toEqual({
      context,
      value: tokenBase64,
    });
    expect(await rpc.getAccountInfo(at(tokenAccount), { encoding: "jsonParsed" }).send()).toEqual({
      context,
      value: tokenParsed,
    });
    expect(await rpc.getAccountInfo(at(usdc()), { encoding: "jsonParsed" }).send()).toEqual({
      context,
      value: mintParsed,
    });
    // Without an encoding the data is a bare base58 string.
    expect((await rpc.getAccountInfo(at(usdc())).send()).value?.data).toBe(base58.encode(bytesOf(usdc())));
    const sliced = await rpc
      .getAccountInfo(at(tokenAccount), { encoding: "base64", dataSlice: { offset: 32, length: 32 } })
      .send();
    expect(sliced.value?.data).toEqual([base64.encode(owner.toBytes()), "base64"]);
    expect((await rpc.getAccountInfo(at(missing), { encoding: "base64" }).send()).value).toBeNull();

    expect(
      await rpc.getMultipleAccounts([at(tokenAccount), at(usdc()), at(missing)], { encoding: "jsonParsed" }).send(),
    ).toEqual({ context, value: [tokenParsed, mintParsed, null] });
    // base64 is getMultipleAccounts' default.
    expect(await rpc.getMultipleAccounts([at(tokenAccount), at(usdc())]).send()).toEqual({
      context,
      value: [tokenBase64, mintBase64],
    });

    const encoded = await fetchEncodedAccount(rpc, at(tokenAccount));
    expect(encoded).toEqual({
      address: tokenAccount.toBase58(),
      data: new Uint8Array(bytesOf(tokenAccount)),
      executable: false,
      exists: true,
      lamports: TOKEN_ACCOUNT_RENT,
      programAddress: TOKEN,
      space: 165n,
    });
    const mint = await fetchJsonParsedAccount(rpc, at(usdc()));
    expect(mint.exists && mint.data).toEqual({
      ...mintParsed.data.parsed.info,
      parsedAccountMeta: { program: "spl-token", type: "mint" },
    });

    expect(await rpc.getBalance(at(owner)).send()).toEqual({ context, value: 10n * SOL });
    expect(await rpc.getTokenAccountBalance(at(tokenAccount)).send()).toEqual({
      context,
      value: tokenAmount(1_000_000_000_000n, "1000000"),
    });
    expect(await rpc.getTokenSupply(at(usdc())).send()).toEqual({
      context,
      value: tokenAmount(8_000_000_000_000n, "8000000"),
    });
    const byMint = await rpc
      .getTokenAccountsByOwner(at(owner), { mint: at(usdc()) }, { encoding: "jsonParsed" })
      .send();
    expect(byMint).toEqual({ context, value: [{ pubkey: tokenAccount.toBase58(), account: tokenParsed }] });
    const byProgram = await rpc
      .getTokenAccountsByOwner(at(owner), { programId: address(TOKEN) }, { encoding: "base64" })
      .send();
    const cngn = ata(owner, harness.accounts.mints.cNGN.publicKey);
    expect([...byProgram.value].sort((a, b) => a.pubkey.localeCompare(b.pubkey))).toEqual(
      [
        { pubkey: tokenAccount.toBase58(), account: tokenBase64 },
        {
          pubkey: cngn.toBase58(),
          account: { ...tokenBase64, data: [base64.encode(bytesOf(cngn)), "base64"] },
        },
      ].sort((a, b) => a.pubkey.localeCompare(b.pubkey)),
    );
  });

  it("writes every u64 exactly: lamports, balances, supplies and rentEpoch beyond 2^53", async () => {
    const whale = localSolanaKeypair("kit:whale").publicKey;
    const mintKey = localSolanaKeypair("kit:mint").publicKey;
    const holder = localSolanaKeypair("kit:holder").publicKey;
    const holding = ata(holder, mintKey);
    putAccount(whale, U64_MAX, SYSTEM, new Uint8Array());
    putAccount(mintKey, MINT_RENT, TOKEN, mintData(harness.accounts.treasury.publicKey, U64_MAX));
    putAccount(holding, TOKEN_ACCOUNT_RENT, TOKEN, tokenAccountData(mintKey, holder, U64_MAX - 1n));
    const context = { slot: slot() };

    expect(await rpc.getBalance(at(whale)).send()).toEqual({ context, value: U64_MAX });
    const whaleJson = {
      data: ["", "base64"],
      executable: false,
      lamports: U64_MAX,
      owner: SYSTEM,
      rentEpoch: U64_MAX,
      space: 0n,
    };
    expect(await rpc.getAccountInfo(at(whale), { encoding: "base64" }).send()).toEqual({ context, value: whaleJson });
    const max = tokenAmount(U64_MAX, "18446744073709.551615");
    const almost = tokenAmount(U64_MAX - 1n, "18446744073709.551614");
    expect(await rpc.getTokenSupply(at(mintKey)).send()).toEqual({ context, value: max });
    expect(await rpc.getTokenAccountBalance(at(holding)).send()).toEqual({ context, value: almost });
    // jsonParsed answers an account no parser knows in base64.
    const parsed = await rpc
      .getMultipleAccounts([at(whale), at(holding), at(mintKey)], { encoding: "jsonParsed" })
      .send();
    expect(parsed.value[0]).toEqual(whaleJson);
    expect(parsed.value[1]?.data).toMatchObject({ parsed: { info: { tokenAmount: almost } } });
    expect(parsed.value[2]?.data).toMatchObject({ parsed: { info: { supply: U64_MAX.toString() } } });
  });

  it("simulates, sends and reports a SOL transfer: statuses, and the transaction in every encoding", async () => {
    const payer = await signerOf(harness.accounts.takers[0] as Keypair);
    const receiver = localSolanaKeypair("kit:receiver").publicKey;
    const ix = transfer(payer.address, receiver, 1_234_567n);
    const draft = await message(payer.address, [ix]);
    const tx = await sign(compileTransaction(draft), payer);
    const wire = getBase64EncodedWireTransaction(tx);

    expect(await rpc.getFeeForMessage(messageBase64(draft)).send()).toEqual({
      context: { slot: slot() },
      value: 5_000n,
    });
    const before = [10n * SOL, 0n, 1n];
    const after = [10n * SOL - 5_000n - 1_234_567n, 1_234_567n, 1n];
    const logs = [`Program ${SYSTEM} invoke [1]`, `Program ${SYSTEM} success`];
    const simulated = await rpc
      .simulateTransaction(wire, { encoding: "base64", accounts: { addresses: [at(receiver)], encoding: "base64" } })
      .send();
    expect(simulated).toEqual({
      context: { slot: slot() },
      value: {
        err: null,
        logs,
        accounts: [
          {
            data: ["", "base64"],
            executable: false,
            lamports: 1_234_567n,
            owner: SYSTEM,
            rentEpoch: U64_MAX,
            space: 0n,
          },
        ],
        unitsConsumed: 150n,
        returnData: null,
        innerInstructions: null,
        replacementBlockhash: null,
        fee: 5_000n,
        preBalances: before,
        postBalances: after,
        preTokenBalances: [],
        postTokenBalances: [],
        loadedAddresses: { writable: [], readonly: [] },
      },
    });

    const sent = await rpc.sendTransaction(wire, { encoding: "base64" }).send();
    expect(sent).toBe(getSignatureFromTransaction(tx));
    const landedAt = slot();
    const unknown = signature(base58.encode(new Uint8Array(64).fill(7)));
    expect(await rpc.getSignatureStatuses([sent, unknown]).send()).toEqual({
      context: { slot: landedAt },
      value: [
        { slot: landedAt, confirmations: 0n, err: null, confirmationStatus: "confirmed", status: { Ok: null } },
        null,
      ],
    });
    expect(await rpc.getBalance(at(receiver)).send()).toEqual({ context: { slot: landedAt }, value: 1_234_567n });
    // What the chain did with the receiver's account, newest first, u64s as bigints.
    expect(await rpc.getSignaturesForAddress(at(receiver)).send()).toEqual([
      {
        signature: sent,
        slot: landedAt,
        err: null,
        memo: null,
        blockTime: BigInt(harness.chain.blockTime),
        confirmationStatus: "confirmed",
      },
    ]);

    const keys = [payer.address, receiver.toBase58(), SYSTEM];
    const recentBlockhash = draft.lifetimeConstraint.blockhash;
    const meta = {
      err: null,
      status: { Ok: null },
      fee: 5_000n,
      preBalances: before,
      postBalances: after,
      innerInstructions: [],
      logMessages: logs,
      preTokenBalances: [],
      postTokenBalances: [],
      rewards: [],
      computeUnitsConsumed: 150n,
    };
    const json = await rpc.getTransaction(sent, { commitment: "confirmed", encoding: "json" }).send();
    expect(json).toEqual({
      slot: landedAt,
      blockTime: BigInt(harness.chain.blockTime),
      transaction: {
        signatures: [sent],
        message: {
          header: { numRequiredSignatures: 1, numReadonlySignedAccounts: 0, numReadonlyUnsignedAccounts: 1 },
          accountKeys: keys,
          recentBlockhash,
          instructions: [{ programIdIndex: 2, accounts: [0, 1], data: base58.encode(ix.data), stackHeight: null }],
        },
      },
      meta: { ...meta, loadedAddresses: { writable: [], readonly: [] } },
    });
    expect(json && "version" in json).toBe(false);

    const parsed = await rpc.getTransaction(sent, { commitment: "confirmed", encoding: "jsonParsed" }).send();
    expect(parsed?.meta).toEqual(meta);
    expect(parsed?.transaction.message).toEqual({
      accountKeys: [
        { pubkey: keys[0], signer: true, writable: true, source: "transaction" },
        { pubkey: keys[1], signer: false, writable: true, source: "transaction" },
        { pubkey: keys[2], signer: false, writable: false, source: "transaction" },
      ],
      recentBlockhash,
      instructions: [
        { programId: SYSTEM, accounts: keys.slice(0, 2), data: base58.encode(ix.data), stackHeight: null },
      ],
    });
    const asBase64 = await rpc.getTransaction(sent, { commitment: "confirmed", encoding: "base64" }).send();
    expect(asBase64?.transaction).toEqual([wire, "base64"]);
    const decoded = getTransactionDecoder().decode(getBase64Encoder().encode(wire));
    expect(decoded).toEqual({ messageBytes: tx.messageBytes, signatures: tx.signatures });
    const asBase58 = await rpc.getTransaction(sent, { commitment: "confirmed", encoding: "base58" }).send();
    expect(asBase58?.transaction).toEqual([getBase58Decoder().decode(getTransactionEncoder().encode(tx)), "base58"]);

    // Finalized 32 slots later: confirmations turn null, and the finalized getTransaction answers.
    expect(await rpc.getTransaction(sent, { commitment: "finalized", encoding: "json" }).send()).toBeNull();
    harness.chain.advance(32);
    expect((await rpc.getSignatureStatuses([sent]).send()).value[0]).toEqual({
      slot: landedAt,
      confirmations: null,
      err: null,
      confirmationStatus: "finalized",
      status: { Ok: null },
    });
    expect((await rpc.getTransaction(sent, { commitment: "finalized", encoding: "json" }).send())?.slot).toBe(landedAt);
  });

  it("simulates a token transfer that creates its recipient's account: inner instructions, token balances, parsed accounts", async () => {
    const keeper = await signerOf(harness.accounts.keeper);
    const resolver = await signerOf(harness.accounts.resolvers[0] as Keypair);
    const newOwner = localSolanaKeypair("kit:new-owner").publicKey;
    const from = ata(new PublicKey(resolver.address));
    const to = ata(newOwner);
    const draft = await message(keeper.address, [
      createAssociatedTokenAccountIdempotentInstruction(new PublicKey(keeper.address), to, newOwner, usdc()),
      createTransferCheckedInstruction(from, usdc(), to, new PublicKey(resolver.address), 1_580_000_001n, 6),
    ]);
    // kit sizes the compute unit limit from a simulation, with the recent blockhash replaced.
    const limited = await estimateAndSetResourceLimitsFactory(estimateResourceLimitsFactory({ rpc }))(draft);
    const tx = await sign(compileTransaction(limited), keeper, resolver);
    const wire = getBase64EncodedWireTransaction(tx);

    const simulated = await rpc
      .simulateTransaction(wire, {
        encoding: "base64",
        innerInstructions: true,
        accounts: { addresses: [at(to)], encoding: "jsonParsed" },
      })
      .send();
    const value = simulated.value;
    expect(value.err).toBeNull();
    expect(value.fee).toBe(10_000n);
    expect(value.accounts).toEqual([
      {
        data: {
          program: "spl-token",
          parsed: {
            type: "account",
            info: {
              isNative: false,
              mint: usdc().toBase58(),
              owner: newOwner.toBase58(),
              state: "initialized",
              tokenAmount: tokenAmount(1_580_000_001n, "1580.000001"),
            },
          },
          space: 165n,
        },
        executable: false,
        lamports: TOKEN_ACCOUNT_RENT,
        owner: TOKEN,
        rentEpoch: U64_MAX,
        space: 165n,
      },
    ]);
    // The associated token program creates the account through the System and Token programs.
    const createIndex = limited.instructions.findIndex(
      (ix) => ix.programAddress === ASSOCIATED_TOKEN_PROGRAM_ID.toBase58(),
    );
    const inner = value.innerInstructions ?? [];
    expect(inner.map((entry) => entry.index)).toEqual([createIndex]);
    expect(inner[0]?.instructions.map((ix) => ("programId" in ix ? ix.programId : undefined))).toEqual([
      TOKEN,
      SYSTEM,
      TOKEN,
      TOKEN,
    ]);
    expect(inner[0]?.instructions.every((ix) => ix.stackHeight === 2)).toBe(true);
    const received = value.postTokenBalances?.find((balance) => balance.owner === newOwner.toBase58());
    expect(received).toMatchObject({ mint: usdc().toBase58(), programId: TOKEN });
    expect(received?.uiTokenAmount).toEqual(tokenAmount(1_580_000_001n, "1580.000001"));
    expect(value.preTokenBalances?.some((balance) => balance.owner === newOwner.toBase58())).toBe(false);

    const sent = await rpc.sendTransaction(wire, { encoding: "base64" }).send();
    const landed = await rpc
      .getTransaction(sent, { commitment: "confirmed", encoding: "jsonParsed", maxSupportedTransactionVersion: 0 })
      .send();
    expect(landed?.version).toBe("legacy");
    // The simulation told what landing did.
    expect(landed?.meta).toMatchObject({
      err: null,
      fee: value.fee,
      preBalances: value.preBalances,
      postBalances: value.postBalances,
      preTokenBalances: value.preTokenBalances,
      postTokenBalances: value.postTokenBalances,
      innerInstructions: value.innerInstructions,
      computeUnitsConsumed: value.unitsConsumed,
    });
    expect((await rpc.getTokenAccountBalance(at(to)).send()).value).toEqual(tokenAmount(1_580_000_001n, "1580.000001"));
    expect(
      (await rpc.getTokenAccountsByOwner(at(newOwner), { mint: at(usdc()) }, { encoding: "jsonParsed" }).send()).value,
    ).toEqual([{ pubkey: to.toBase58(), account: value.accounts?.[0] }]);
  });

  it("refuses as kit's errors: a failed preflight with its simulation, a duplicate, a bad signature, an unreached slot", async () => {
    const payer = await signerOf(harness.accounts.takers[1] as Keypair);
    const receiver = localSolanaKeypair("kit:refused").publicKey;
    const tooMuch = await sign(
      compileTransaction(await message(payer.address, [transfer(payer.address, receiver, 100n * SOL)])),
      payer,
    );
    const wire = getBase64EncodedWireTransaction(tooMuch);
    const preflight = await rejection(rpc.sendTransaction(wire, { encoding: "base64" }).send());
    if (!isSolanaError(preflight, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE)) {
      throw preflight;
    }
    expect(preflight.context).toMatchObject({
      accounts: null,
      unitsConsumed: 150n,
      returnData: null,
      fee: 5_000n,
      preBalances: [10n * SOL, 0n, 1n],
      // Failed, it would still pay its fee.
      postBalances: [10n * SOL - 5_000n, 0n, 1n],
      preTokenBalances: [],
      postTokenBalances: [],
      loadedAddresses: { writable: [], readonly: [] },
    });
    expect(preflight.context.logs?.join("\n")).toContain("insufficient lamports");
    expect(isSolanaError(preflight.cause, SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM)).toBe(true);
    expect((preflight.cause as { context: unknown }).context).toMatchObject({ code: 1, index: 0 });

    // Without preflight it lands, failed, and pays its fee.
    const failed = await rpc.sendTransaction(wire, { encoding: "base64", skipPreflight: true }).send();
    const err = { InstructionError: [0n, { Custom: 1n }] };
    expect((await rpc.getSignatureStatuses([failed]).send()).value[0]).toMatchObject({ err, status: { Err: err } });
    const landed = await rpc.getTransaction(failed, { commitment: "confirmed", encoding: "json" }).send();
    expect(landed?.meta).toMatchObject({
      err,
      status: { Err: err },
      fee: 5_000n,
      postBalances: [10n * SOL - 5_000n, 0n, 1n],
    });

    const again = await rejection(rpc.sendTransaction(wire, { encoding: "base64" }).send());
    if (!isSolanaError(again, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE)) throw again;
    expect(isSolanaError(again.cause, SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED)).toBe(true);
    // Refused before running: no fee, nothing moves.
    expect(again.context).toMatchObject({ fee: null, unitsConsumed: 0n, postBalances: again.context.preBalances });

    const good = await sign(
      compileTransaction(await message(payer.address, [transfer(payer.address, receiver, SOL)])),
      payer,
    );
    const first = good.signatures[payer.address] as SignatureBytes;
    const forged = {
      ...good,
      signatures: { ...good.signatures, [payer.address]: first.map((b, i) => (i === 0 ? b ^ 1 : b)) },
    };
    const refused = await rejection(
      rpc.sendTransaction(getBase64EncodedWireTransaction(forged as Transaction), { encoding: "base64" }).send(),
    );
    expect(
      isSolanaError(refused, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE),
    ).toBe(true);

    const ahead = await rejection(rpc.getBalance(at(receiver), { minContextSlot: slot() + 10n }).send());
    if (!isSolanaError(ahead, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_MIN_CONTEXT_SLOT_NOT_REACHED)) throw ahead;
    expect(ahead.context).toMatchObject({ contextSlot: slot() });
  });

  it("lands a v0 transaction through a lookup table that kit resolves jsonParsed to decompile what it fetched", async () => {
    const payer = await signerOf(harness.accounts.takers[2] as Keypair);
    const owner = new PublicKey(payer.address);
    const receiver = localSolanaKeypair("kit:v0").publicKey;
    const recentSlot = Number(await rpc.getSlot().send());
    const [create, table] = AddressLookupTableProgram.createLookupTable({ authority: owner, payer: owner, recentSlot });
    const extend = AddressLookupTableProgram.extendLookupTable({
      lookupTable: table,
      authority: owner,
      payer: owner,
      addresses: [receiver],
    });
    const setup = await sign(compileTransaction(await message(payer.address, [create, extend])), payer);
    await rpc.sendTransaction(getBase64EncodedWireTransaction(setup), { encoding: "base64" }).send();
    const extendedAt = slot();
    harness.chain.advance(1); // a table's new addresses serve from the next slot

    expect((await rpc.getAccountInfo(at(table), { encoding: "jsonParsed" }).send()).value?.data).toEqual({
      program: "address-lookup-table",
      parsed: {
        type: "lookupTable",
        info: {
          deactivationSlot: U64_MAX.toString(),
          lastExtendedSlot: extendedAt.toString(),
          lastExtendedSlotStartIndex: 0,
          authority: payer.address,
          addresses: [receiver.toBase58()],
        },
      },
      space: 88n,
    });

    const draft = compressTransactionMessageUsingAddressLookupTables(
      await v0Message(payer.address, [transfer(payer.address, receiver, 3_000_000n)]),
      { [at(table)]: [at(receiver)] },
    );
    const tx = await sign(compileTransaction(draft), payer);
    const wire = getBase64EncodedWireTransaction(tx);
    const simulated = await rpc.simulateTransaction(wire, { encoding: "base64" }).send();
    expect(simulated.value.loadedAddresses).toEqual({ writable: [receiver.toBase58()], readonly: [] });
    // The payer and the System program from the message, the receiver from the table.
    expect(simulated.value.postBalances?.slice(1)).toEqual([1n, 3_000_000n]);
    const sent = await rpc.sendTransaction(wire, { encoding: "base64" }).send();

    const json = await rpc
      .getTransaction(sent, { commitment: "confirmed", encoding: "json", maxSupportedTransactionVersion: 0 })
      .send();
    expect(json?.version).toBe(0);
    expect(json?.transaction.message).toMatchObject({
      accountKeys: [payer.address, SYSTEM],
      addressTableLookups: [{ accountKey: table.toBase58(), writableIndexes: [0], readonlyIndexes: [] }],
    });
    expect(json?.meta?.loadedAddresses).toEqual({ writable: [receiver.toBase58()], readonly: [] });
    const parsed = await rpc
      .getTransaction(sent, { commitment: "confirmed", encoding: "jsonParsed", maxSupportedTransactionVersion: 0 })
      .send();
    expect(parsed?.transaction.message.accountKeys[2]).toEqual({
      pubkey: receiver.toBase58(),
      signer: false,
      writable: true,
      source: "lookupTable",
    });

    const fetched = await rpc
      .getTransaction(sent, { commitment: "confirmed", encoding: "base64", maxSupportedTransactionVersion: 0 })
      .send();
    const decoded = getTransactionDecoder().decode(getBase64Encoder().encode(fetched?.transaction[0] ?? ""));
    const compiled = getCompiledTransactionMessageDecoder().decode(decoded.messageBytes);
    const decompiled = await decompileTransactionMessageFetchingLookupTables(compiled, rpc);
    expect(decompiled.instructions[0]?.accounts?.map((a) => a.address)).toEqual([payer.address, receiver.toBase58()]);

    const legacyClient = await rejection(
      rpc.getTransaction(sent, { commitment: "confirmed", encoding: "json" }).send(),
    );
    expect(isSolanaError(legacyClient, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_UNSUPPORTED_TRANSACTION_VERSION)).toBe(
      true,
    );
  });

  it("airdrops, and answers a prioritization fee beyond 2^53 exactly", async () => {
    const rich = await generateKeyPairSigner();
    const airdrop = await rpc.requestAirdrop(rich.address, lamports(10_000n * SOL)).send();
    expect((await rpc.getSignatureStatuses([airdrop]).send()).value[0]).toMatchObject({ err: null });
    expect((await rpc.getBalance(rich.address).send()).value).toBe(10_000n * SOL);
    harness.chain.advance(1);

    // 2^53 + 1 micro-lamports per compute unit: a JS number would say 2^53.
    const price = 2n ** 53n + 1n;
    const draft = pipe(
      await message(rich.address, [transfer(rich.address, localSolanaKeypair("kit:priced").publicKey, SOL)]),
      (m) => setTransactionMessageComputeUnitLimit(1_000, m),
      (m) => setTransactionMessageComputeUnitPrice(price, m),
    );
    const fee = 5_000n + (price * 1_000n + 999_999n) / 1_000_000n;
    const feeForMessage = await rpc.getFeeForMessage(messageBase64(draft)).send();
    expect(feeForMessage.value).toBe(fee);
    const tx = await sign(compileTransaction(draft), rich);
    const sent = await rpc.sendTransaction(getBase64EncodedWireTransaction(tx), { encoding: "base64" }).send();
    expect((await rpc.getTransaction(sent, { commitment: "confirmed", encoding: "json" }).send())?.meta?.fee).toBe(fee);

    const fees = await rpc.getRecentPrioritizationFees([rich.address]).send();
    expect(fees).toHaveLength(Math.min(150, harness.chain.slot + 1));
    expect(fees.at(-1)).toEqual({ slot: slot(), prioritizationFee: price });
    expect(fees.at(-2)).toEqual({ slot: slot() - 1n, prioritizationFee: 0n });
  });

  it("simulates with an expired blockhash as refused, or with it replaced", async () => {
    const payer = await signerOf(harness.accounts.takers[1] as Keypair);
    const old = (await rpc.getLatestBlockhash({ commitment: "processed" }).send()).value.blockhash;
    harness.chain.advance(151);
    const draft = await message(
      payer.address,
      [transfer(payer.address, localSolanaKeypair("kit:late").publicKey, SOL)],
      old,
    );
    const wire = getBase64EncodedWireTransaction(await sign(compileTransaction(draft), payer));
    const refused = (await rpc.simulateTransaction(wire, { encoding: "base64", sigVerify: true }).send()).value;
    expect(refused).toMatchObject({ err: "BlockhashNotFound", logs: [], unitsConsumed: 0n, fee: null });
    expect(refused.postBalances).toEqual(refused.preBalances);
    const replaced = (await rpc.simulateTransaction(wire, { encoding: "base64", replaceRecentBlockhash: true }).send())
      .value;
    const latest = harness.chain.latestBlockhash("processed");
    expect(replaced).toMatchObject({
      err: null,
      fee: 5_000n,
      replacementBlockhash: { blockhash: latest.blockhash, lastValidBlockHeight: BigInt(latest.lastValidBlockHeight) },
    });
  });

  it("has called every method the harness serves", () => {
    expect([...called].sort()).toEqual(Object.keys(METHODS).sort());
  });
});
