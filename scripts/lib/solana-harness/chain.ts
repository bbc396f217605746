/**
 * The local chain: one LiteSVM bank that moves a slot at a time, with the blockhash window, the ledger of
 * landed transactions and the clock kept around it.
 *
 * LiteSVM accepts only its current blockhash, and it changes every slot here, so its own blockhash check
 * is off and the window (blockhashes.ts) decides which blockhashes are still valid; the transaction is
 * then run as signed, with LiteSVM verifying its signatures (sigverify on). Duplicates are refused from
 * the ledger, which keeps every landed transaction (LiteSVM's history keeps only the last few dozen).
 */
import { type Keypair, PublicKey, SystemProgram, Transaction, TransactionInstruction } from "@solana/web3.js";
import { Clock, EpochSchedule, LiteSVM } from "litesvm";
import {
  type AccountReader,
  type AccountView,
  accountKeysOf,
  lamportsOf,
  type TokenBalance,
  tokenBalancesOf,
} from "./balances";
import { BlockhashWindow, lastValidBlockHeight } from "./blockhashes";
import { type Commitment, slotAtCommitment } from "./commitment";
import { computeBudget, type FeeInstruction, transactionFee } from "./fees";
import { type LandedTransaction, Ledger } from "./ledger";
import { type Execution, executionOf, failed, svmAddress, svmTransaction } from "./litesvm-bridge";
import type { TransactionErrorJson } from "./tx-errors";
import { parseTransaction, type WireTransaction } from "./wire";

/** Slots per epoch, as on mainnet; epochs start at slot 0 with no warm-up. */
export const SLOTS_PER_EPOCH = 432_000;
const MEMO_PROGRAM = new PublicKey("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr");

type SvmSignature = Parameters<LiteSVM["getTransaction"]>[0];

export interface LatestBlockhash {
  slot: number;
  blockhash: string;
  lastValidBlockHeight: number;
}

export interface Simulation {
  execution: Execution;
  /** Accounts as the transaction left them (empty when it did not run). */
  postAccounts: Map<string, AccountView>;
  accountKeys: string[];
  loadedAddresses: { writable: string[]; readonly: string[] };
  /** The fee it would pay, null when it would be refused before running (and pay nothing). */
  fee: bigint | null;
  preBalances: bigint[];
  postBalances: bigint[];
  preTokenBalances: TokenBalance[];
  postTokenBalances: TokenBalance[];
}

export interface LocalChainOptions {
  /** Wall time in milliseconds; the clock sysvar's unix_timestamp follows it. */
  now?: () => number;
}

/**
 * Whether a transaction that ended with `err` ran and paid its fee: it succeeded, or failed in an
 * instruction or on the rent check after its instructions. Any other error refuses it before it runs.
 */
function paysFee(err: TransactionErrorJson | null): boolean {
  return err === null || (typeof err === "object" && ("InstructionError" in err || "InsufficientFundsForRent" in err));
}

export function feeInstructions(wire: WireTransaction): FeeInstruction[] {
  const keys = wire.tx.message.staticAccountKeys;
  return wire.tx.message.compiledInstructions.map((ix) => ({
    programId: keys[ix.programIdIndex]?.toBase58() ?? "",
    data: ix.data,
  }));
}

export class LocalChain {
  readonly svm: LiteSVM;
  readonly ledger = new Ledger();
  readonly genesisHash: string;
  private readonly window = new BlockhashWindow();
  private readonly now: () => number;
  private readonly genesisTime: number;
  private currentSlot = 0;
  private currentTime: number;
  private airdrops = 0;

  constructor(options: LocalChainOptions = {}) {
    this.now = options.now ?? Date.now;
    this.svm = new LiteSVM().withBlockhashCheck(false);
    this.svm.setEpochSchedule(new EpochSchedule(BigInt(SLOTS_PER_EPOCH), BigInt(SLOTS_PER_EPOCH), false, 0n, 0n));
    this.genesisTime = Math.floor(this.now() / 1000);
    this.currentTime = this.genesisTime;
    this.genesisHash = this.svm.latestBlockhash();
    this.setClock();
    this.record();
  }

  get slot(): number {
    return this.currentSlot;
  }

  /** The unix time of the current slot, in seconds. */
  get blockTime(): number {
    return this.currentTime;
  }

  private setClock(): void {
    const epoch = BigInt(Math.floor(this.currentSlot / SLOTS_PER_EPOCH));
    const clock = new Clock(
      BigInt(this.currentSlot),
      BigInt(this.genesisTime),
      epoch,
      epoch + 1n,
      BigInt(this.currentTime),
    );
    this.svm.setClock(clock);
  }

  /** Moves to the next slot: a new blockhash, the clock at wall time. */
  tick(): void {
    this.currentSlot += 1;
    this.currentTime = Math.max(this.currentTime, Math.floor(this.now() / 1000));
    this.setClock();
    this.svm.expireBlockhash();
    this.record();
  }

  /**
   * Keeps the current slot's blockhash in the window, and the window in the SlotHashes sysvar, which
   * programs read for recent slots (the Address Lookup Table program checks a new table's `recentSlot`).
   */
  private record(): void {
    this.window.record(this.currentSlot, this.svm.latestBlockhash());
    type SlotHashes = Parameters<LiteSVM["setSlotHashes"]>[0];
    const hashes = this.window.recent().map(({ slot, blockhash }) => ({ slot: BigInt(slot), hash: blockhash }));
    this.svm.setSlotHashes(hashes as unknown as SlotHashes);
  }

  advance(slots: number): void {
    for (let i = 0; i < slots; i++) this.tick();
  }

  latestBlockhash(commitment: Commitment): LatestBlockhash {
    const slot = slotAtCommitment(commitment, this.currentSlot);
    const blockhash = this.window.blockhashAt(slot) ?? this.svm.latestBlockhash();
    return { slot, blockhash, lastValidBlockHeight: lastValidBlockHeight(slot) };
  }

  isBlockhashValid(blockhash: string): boolean {
    return this.window.isValid(blockhash, this.currentSlot);
  }

  readonly read: AccountReader = (address) => {
    const account = this.svm.getAccount(svmAddress(address));
    if (!account.exists) return null;
    return {
      lamports: BigInt(account.lamports),
      owner: account.programAddress,
      data: account.data,
      executable: account.executable,
    };
  };

  /**
   * Whether every signature passes the runtime's own check (LiteSVM's, which is agave's: ed25519-dalek's
   * `verify_strict`), as a validator's RPC checks them before its preflight. A cofactored ed25519 check
   * accepts signatures this one refuses (a small-order R, say), so the harness does not check them itself.
   */
  signaturesVerify(wire: WireTransaction): boolean {
    const result = this.svm.simulateTransaction(svmTransaction(wire));
    return !(failed(result) && executionOf(result).err === "SignatureFailure");
  }

  /**
   * What the transaction would do now, as `simulateTransaction` and preflight run it (no signature check),
   * with the fee and the balances before and after that a validator's simulation reports. A transaction
   * that fails in an instruction leaves every account as it was but its fee payer's, which pays the fee.
   */
  simulate(wire: WireTransaction, options: { replaceRecentBlockhash?: boolean } = {}): Simulation {
    const keys = accountKeysOf(wire.tx.message, this.read);
    const preBalances = lamportsOf(keys.all, this.read);
    const preTokenBalances = tokenBalancesOf(keys.all, this.read);
    const outcome = (execution: Execution, postAccounts = new Map<string, AccountView>()): Simulation => {
      const fee = paysFee(execution.err) ? transactionFee(wire.tx.signatures.length, feeInstructions(wire)) : null;
      const after: AccountReader = (address) => postAccounts.get(address) ?? this.read(address);
      const ran = execution.err === null;
      return {
        execution,
        postAccounts,
        accountKeys: keys.all,
        loadedAddresses: keys.loaded,
        fee,
        preBalances,
        postBalances: ran
          ? lamportsOf(keys.all, after)
          : preBalances.map((lamports, i) => (i === 0 && fee !== null ? lamports - fee : lamports)),
        preTokenBalances,
        postTokenBalances: ran ? tokenBalancesOf(keys.all, after) : preTokenBalances,
      };
    };
    const refused = (err: "AlreadyProcessed" | "BlockhashNotFound") =>
      outcome({ err, logs: [], unitsConsumed: 0, innerInstructions: [], returnData: null });
    if (!options.replaceRecentBlockhash) {
      if (this.ledger.has(wire.signature)) return refused("AlreadyProcessed");
      if (!this.isBlockhashValid(wire.tx.message.recentBlockhash)) return refused("BlockhashNotFound");
    }
    this.svm.withSigverify(false);
    try {
      const result = this.svm.simulateTransaction(svmTransaction(wire));
      if (failed(result)) return outcome(executionOf(result));
      const postAccounts = new Map<string, AccountView>();
      for (const account of result.postAccounts()) {
        postAccounts.set(account.address, {
          lamports: BigInt(account.lamports),
          owner: account.programAddress,
          data: Uint8Array.from(account.data),
          executable: account.executable,
        });
      }
      return outcome(executionOf(result.meta()), postAccounts);
    } finally {
      this.svm.withSigverify(true);
    }
  }

  /**
   * Runs the transaction in the current slot, as a leader would: one that is a duplicate, names a blockhash
   * outside the window, fails signature verification or cannot pay its fee is dropped (null); one that
   * fails while executing lands with its error and pays its fee.
   */
  land(wire: WireTransaction): LandedTransaction | null {
    if (this.ledger.has(wire.signature)) return null;
    if (!this.isBlockhashValid(wire.tx.message.recentBlockhash)) return null;
    const keys = accountKeysOf(wire.tx.message, this.read);
    const preBalances = lamportsOf(keys.all, this.read);
    const preTokenBalances = tokenBalancesOf(keys.all, this.read);
    const result = this.svm.sendTransaction(svmTransaction(wire));
    if (failed(result) && this.svm.getTransaction(wire.signature as SvmSignature) === null) return null;
    const instructions = feeInstructions(wire);
    const landed: LandedTransaction = {
      signature: wire.signature,
      slot: this.currentSlot,
      blockTime: this.currentTime,
      wire,
      accountKeys: keys.all,
      loadedAddresses: keys.loaded,
      fee: transactionFee(wire.tx.signatures.length, instructions),
      preBalances,
      postBalances: lamportsOf(keys.all, this.read),
      preTokenBalances,
      postTokenBalances: tokenBalancesOf(keys.all, this.read),
      execution: executionOf(result),
    };
    const writable = keys.all.filter((_, i) => wire.tx.message.isAccountWritable(i));
    this.ledger.add(landed, computeBudget(instructions).unitPrice, writable);
    return landed;
  }

  /** Sends `lamports` from `faucet` to `to` in a transaction of its own; its signature. */
  airdrop(faucet: Keypair, to: PublicKey, lamports: bigint): string {
    for (;;) {
      const tx = new Transaction({ feePayer: faucet.publicKey, recentBlockhash: this.svm.latestBlockhash() });
      tx.add(SystemProgram.transfer({ fromPubkey: faucet.publicKey, toPubkey: to, lamports }));
      // Two equal airdrops in one slot would be one transaction: a memo tells them apart.
      if (this.airdrops > 0) {
        tx.add(
          new TransactionInstruction({
            programId: MEMO_PROGRAM,
            keys: [],
            data: Buffer.from(`airdrop ${this.airdrops}`),
          }),
        );
      }
      tx.sign(faucet);
      const wire = parseTransaction(tx.serialize());
      if (this.ledger.has(wire.signature)) {
        this.airdrops += 1;
        continue;
      }
      const landed = this.land(wire);
      if (!landed || landed.execution.err !== null) throw new Error("the faucet could not send the airdrop");
      return wire.signature;
    }
  }
}
