/**
 * The keeper's steps for a Solana quote (docs/settlement.md, "The keeper's steps on Solana"), as plain
 * functions over Solana JSON-RPC with `fetch`: sign the taker's transaction as its fee payer, simulate
 * it, send it, follow it by signature, and read its receipt. Every read throws `ChainUnavailableError`
 * when the RPC does not answer; `sendSwap` never throws.
 */
import { ed25519 } from "@noble/curves/ed25519";
import { base58, base64 } from "@scure/base";
import { type Keypair, VersionedTransaction } from "@solana/web3.js";
import { blamed } from "../../states";
import { type BroadcastResult, ChainUnavailableError } from "../settler";
import { readAccountsExist } from "./existing-accounts";
import { frozenAccounts } from "./frozen-accounts";
import { accountsGivenAway } from "./given-away-accounts";
import { unpricedRecipientAccount } from "./recipient-rent";
import { SolanaRpcError, solanaRpc } from "./rpc";
import { swapCreations } from "./swap-creations";
import {
  frozenSuspects,
  givenAwaySuspects,
  type SwapFailure,
  type SwapInstructions,
  shortTransactionError,
  simulationFailure,
  type TransactionErrorJson,
} from "./swap-failures";
import { type SwapReceipt, swapReceiptOf, type TransactionJson } from "./swap-receipt";
import { signatureFailure } from "./swap-signature-failure";
import { swapTransfers } from "./swap-transfers";
import { messageBytes, readWire, readWireBase64, slotBytes } from "./wire";

/** The RPC's answer to a transaction whose signatures do not verify. */
const SIGNATURE_VERIFICATION_FAILURE = -32003;

/** The fully signed swap: the bytes to send, and its id (the fee payer's signature, base58). */
interface FeePayerSigned {
  raw: Uint8Array;
  signature: string;
}

/**
 * Adds the keeper's signature to the transaction the taker signed (already checked by
 * `checkTakerTransaction`) in the fee payer's slot, the first. Throws when the transaction cannot be
 * read or its fee payer is not `keeper`.
 */
export function signAsFeePayer(takerSignedBase64: string, keeper: Keypair): FeePayerSigned {
  const wire = readWireBase64(takerSignedBase64);
  if (!wire) throw new Error("not a serialized transaction");
  if (wire.signers[0] !== keeper.publicKey.toBase58()) throw new Error("the keeper is not the transaction's fee payer");
  const signature = ed25519.sign(messageBytes(wire), keeper.secretKey.subarray(0, 32));
  const raw = Uint8Array.from(wire.bytes);
  raw.set(signature, wire.slotsOffset);
  return { raw, signature: base58.encode(signature) };
}

/** The transaction id of signed bytes: its first signature (the fee payer's), base58. */
export function transactionId(raw: Uint8Array): string {
  const wire = readWire(raw);
  if (!wire) throw new Error("not a serialized transaction");
  return base58.encode(slotBytes(wire, 0));
}

type SwapSimulation =
  | { ok: true; unitsConsumed: number }
  | ({ ok: false; kind: "requote"; logs: string[] } & SwapFailure);

interface SimulationValue {
  err: TransactionErrorJson | null;
  logs: string[] | null;
  unitsConsumed?: number;
}

/**
 * Simulates the signed swap as it will be sent: signatures verified, its own blockhash kept, against
 * the `confirmed` bank. A failure is a requote whose reason says who must act (`simulationFailureReason`).
 */
export async function simulateSwap(rpcUrl: string, raw: Uint8Array): Promise<SwapSimulation> {
  const config = { encoding: "base64", sigVerify: true, replaceRecentBlockhash: false, commitment: "confirmed" };
  let value: SimulationValue;
  try {
    ({ value } = await solanaRpc<{ value: SimulationValue }>(rpcUrl, "simulateTransaction", [
      base64.encode(raw),
      config,
    ]));
  } catch (e) {
    if (!(e instanceof SolanaRpcError)) throw e;
    const failure =
      e.code === SIGNATURE_VERIFICATION_FAILURE
        ? signatureFailure(raw, transfersOf(raw)[0]?.from ?? null)
        : { reason: blamed("relay", `simulation_failed:rpc_${e.code}`) };
    return { ok: false, kind: "requote", ...failure, logs: [] };
  }
  const logs = value.logs ?? [];
  if (value.err === null) return { ok: true, unitsConsumed: value.unitsConsumed ?? 0 };
  return { ok: false, kind: "requote", ...(await swapFailure(rpcUrl, raw, value.err, logs)), logs };
}

/**
 * Why the swap `raw` failed with `err`, blamed on whoever's leg or account failed (`simulationFailure`, which
 * names the maker of a resolver's fault); a transfer refused for a frozen account reads which of its two
 * accounts is frozen first (`frozenAccounts`), and a creation refused as another key's account whether it is
 * (`accountsGivenAway`).
 */
export async function swapFailure(
  rpcUrl: string,
  raw: Uint8Array,
  err: TransactionErrorJson,
  logs: string[],
): Promise<SwapFailure> {
  const swap = instructionsOf(raw);
  const [frozen, givenAway] = await Promise.all([
    frozenAccounts(rpcUrl, frozenSuspects(err, swap)),
    accountsGivenAway(rpcUrl, givenAwaySuspects(err, swap)),
  ]);
  return simulationFailure(err, logs, swap, { frozen, givenAway });
}

function instructionsOf(raw: Uint8Array): SwapInstructions {
  const message = VersionedTransaction.deserialize(raw).message;
  const keys = message.staticAccountKeys.map((k) => k.toBase58());
  return { transfers: swapTransfers(message, keys), creations: swapCreations(message, keys) };
}

const transfersOf = (raw: Uint8Array) => instructionsOf(raw).transfers;

/**
 * Whether the taker's token accounts hold what its legs of the swap `raw` take (the first leg's payer is
 * the taker, `swapTransfers`), read before simulating (docs/reliability.md, "Blame"). A missing account
 * holds nothing.
 */
export async function takerHolds(rpcUrl: string, raw: Uint8Array): Promise<boolean> {
  const transfers = transfersOf(raw);
  const taker = transfers[0]?.from;
  const draws = new Map<string, bigint>();
  for (const t of transfers) if (t.from === taker) draws.set(t.source, (draws.get(t.source) ?? 0n) + t.amount);
  const held = await Promise.all(
    [...draws].map(async ([account, amount]) => (await tokenAccountBalance(rpcUrl, account)) >= amount),
  );
  return held.every(Boolean);
}

/** The recipient's account the swap `raw` has `keeper` create though its quote charged no rent for it (`unpricedRecipientAccount`). */
export const unpricedRecipientCreation = (raw: Uint8Array, keeper: string, rentPriced: boolean): string | null =>
  unpricedRecipientAccount(instructionsOf(raw), keeper, rentPriced);

/**
 * Whether the swap `raw` would have `keeper` create the recipient's token account, unpriced: the quote
 * charged no rent for it (`rentPriced` false) and it is missing now (`unpricedRecipientAccount`), read
 * before simulating, at `processed` so that a close sent just before the submission is seen
 * (docs/security.md, "A recipient's token account closed for its rent").
 */
export async function recipientAccountClosed(
  rpcUrl: string,
  raw: Uint8Array,
  keeper: string,
  rentPriced: boolean,
): Promise<boolean> {
  const account = unpricedRecipientCreation(raw, keeper, rentPriced);
  if (account === null) return false;
  const [exists] = await readAccountsExist(rpcUrl, [account], undefined, "processed");
  return exists === false;
}

/** The JSON-RPC error a validator answers for a token account that does not exist. */
const INVALID_PARAMS = -32602;

async function tokenAccountBalance(rpcUrl: string, account: string): Promise<bigint> {
  try {
    const { value } = await solanaRpc<{ value: { amount: string } }>(rpcUrl, "getTokenAccountBalance", [
      account,
      { commitment: "confirmed" },
    ]);
    return BigInt(value.amount);
  } catch (e) {
    if (e instanceof SolanaRpcError && e.code === INVALID_PARAMS) return 0n;
    throw e;
  }
}

interface SignatureStatusJson {
  slot: number;
  err: TransactionErrorJson | null;
  confirmationStatus: "processed" | "confirmed" | "finalized" | null;
}

async function signatureStatuses(rpcUrl: string, signatures: readonly string[], history: boolean) {
  const { value } = await solanaRpc<{ value: (SignatureStatusJson | null)[] }>(rpcUrl, "getSignatureStatuses", [
    signatures,
    { searchTransactionHistory: history },
  ]);
  return signatures.map((_, i) => value[i] ?? null);
}

async function signatureStatus(rpcUrl: string, signature: string, history: boolean) {
  return (await signatureStatuses(rpcUrl, [signature], history))[0] ?? null;
}

function isAlreadyProcessed(e: SolanaRpcError): boolean {
  const err = (e.data as { err?: unknown } | null)?.err;
  return err === "AlreadyProcessed" || /already been processed/i.test(e.message);
}

/**
 * Sends the signed swap once: no preflight (it was just simulated) and no retries by the RPC node (the
 * keeper sends the same bytes again while the swap is pending). A node does not tell a duplicate apart
 * when preflight is off, so the signature is looked up first: a transaction the chain already has is
 * `known`, as is an `AlreadyProcessed` answer.
 */
export async function sendSwap(rpcUrl: string, raw: Uint8Array): Promise<BroadcastResult> {
  try {
    if (await signatureStatus(rpcUrl, transactionId(raw), false)) return { status: "known" };
    await solanaRpc<string>(rpcUrl, "sendTransaction", [
      base64.encode(raw),
      { encoding: "base64", skipPreflight: true, maxRetries: 0 },
    ]);
    return { status: "accepted" };
  } catch (e) {
    if (e instanceof ChainUnavailableError) return { status: "unreachable", reason: e.message };
    if (e instanceof SolanaRpcError) {
      if (isAlreadyProcessed(e)) return { status: "known" };
      const err = (e.data as { err?: TransactionErrorJson | null } | null)?.err;
      return { status: "refused", reason: err ? shortTransactionError(err) : e.message };
    }
    return { status: "refused", reason: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * Where a sent swap stands: `landed` (confirmed or finalized, no error), `reverted` (landed with an
 * error: the keeper paid the fee, nothing moved), `dropped` (unknown to the chain and its blockhash
 * expired, so it can never land), or `pending` (including `processed`, whose slot may still be skipped).
 */
export type SwapStatus =
  | { state: "pending" }
  | { state: "landed"; slot: number; confirmationStatus: "confirmed" | "finalized" }
  | { state: "reverted"; slot: number; confirmationStatus: "confirmed" | "finalized"; err: TransactionErrorJson }
  | { state: "dropped" };

/** The most signatures `getSignatureStatuses` takes in one call. */
const STATUSES_PER_CALL = 256;

/**
 * The status of each swap (`signature`, its blockhash valid up to `lastValidBlockHeight`) in one
 * `getSignatureStatuses` call per 256, after one read of the block height: a height already past a swap's
 * last valid one means it can no longer land, so a status still unknown after it is final.
 */
export async function swapStatuses(
  rpcUrl: string,
  swaps: readonly { signature: string; lastValidBlockHeight: number }[],
): Promise<SwapStatus[]> {
  if (swaps.length === 0) return [];
  const height = await solanaRpc<number>(rpcUrl, "getBlockHeight", [{ commitment: "confirmed" }]);
  const found: (SignatureStatusJson | null)[] = [];
  for (let at = 0; at < swaps.length; at += STATUSES_PER_CALL) {
    const signatures = swaps.slice(at, at + STATUSES_PER_CALL).map((s) => s.signature);
    found.push(...(await signatureStatuses(rpcUrl, signatures, true)));
  }
  return swaps.map((swap, i): SwapStatus => {
    const status = found[i] ?? null;
    if (!status) return height > swap.lastValidBlockHeight ? { state: "dropped" } : { state: "pending" };
    const confirmationStatus = status.confirmationStatus;
    if (confirmationStatus !== "confirmed" && confirmationStatus !== "finalized") return { state: "pending" };
    if (status.err !== null) return { state: "reverted", slot: status.slot, confirmationStatus, err: status.err };
    return { state: "landed", slot: status.slot, confirmationStatus };
  });
}

/** The receipt of a swap that landed (`confirmed` or deeper); null while the node does not return it. */
export async function swapReceipt(rpcUrl: string, signature: string): Promise<SwapReceipt | null> {
  const tx = await solanaRpc<TransactionJson | null>(rpcUrl, "getTransaction", [
    signature,
    { encoding: "base64", commitment: "confirmed", maxSupportedTransactionVersion: 0 },
  ]);
  return tx ? swapReceiptOf(signature, tx) : null;
}

/** `swapFailure`'s reason alone. */
export async function swapFailureReason(
  rpcUrl: string,
  raw: Uint8Array,
  err: TransactionErrorJson,
  logs: string[],
): Promise<string> {
  return (await swapFailure(rpcUrl, raw, err, logs)).reason;
}
