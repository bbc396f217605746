import { base64 } from "@scure/base";
import { VersionedTransaction } from "@solana/web3.js";
import { verifyEd25519 } from "./ed25519";

export const SIGNATURE_BYTES = 64;

/**
 * A serialized transaction read as its bytes: `compact-u16 n · n signatures of 64 bytes · message`,
 * the signature slots in the order of the message's first n account keys.
 */
export interface WireTransaction {
  bytes: Uint8Array;
  /** The base58 keys that must sign, slot by slot. */
  signers: string[];
  /** Where the first signature slot starts (after the compact-u16 count). */
  slotsOffset: number;
  /** Where the message starts; it runs to the end of `bytes`. */
  messageOffset: number;
}

/** The base64 of `tx` as it would be sent. */
export function encodeTransaction(tx: VersionedTransaction): string {
  return base64.encode(tx.serialize());
}

/** Strict base64 (padded, standard alphabet) to bytes; null for anything else. */
export function decodeBase64(text: string): Uint8Array | null {
  try {
    return base64.decode(text);
  } catch {
    return null;
  }
}

function compactU16Length(n: number): number {
  return n < 0x80 ? 1 : n < 0x4000 ? 2 : 3;
}

/**
 * Reads a legacy or v0 transaction whose bytes are exactly its canonical serialization (no trailing
 * bytes, one signature slot per required signer); null for anything else.
 */
export function readWire(bytes: Uint8Array): WireTransaction | null {
  let tx: VersionedTransaction;
  try {
    tx = VersionedTransaction.deserialize(bytes);
  } catch {
    return null;
  }
  const n = tx.signatures.length;
  if (n !== tx.message.header.numRequiredSignatures) return null;
  const slotsOffset = compactU16Length(n);
  const messageOffset = slotsOffset + n * SIGNATURE_BYTES;
  let message: Uint8Array;
  try {
    message = tx.message.serialize();
  } catch {
    return null;
  }
  if (bytes.length !== messageOffset + message.length || !equalBytes(bytes.subarray(messageOffset), message)) {
    return null;
  }
  const signers = tx.message.staticAccountKeys.slice(0, n).map((k) => k.toBase58());
  return { bytes, signers, slotsOffset, messageOffset };
}

/** `readWire` of base64 text. */
export function readWireBase64(text: string): WireTransaction | null {
  const bytes = decodeBase64(text);
  return bytes ? readWire(bytes) : null;
}

export function messageBytes(wire: WireTransaction): Uint8Array {
  return wire.bytes.subarray(wire.messageOffset);
}

export function slotBytes(wire: WireTransaction, index: number): Uint8Array {
  const start = wire.slotsOffset + index * SIGNATURE_BYTES;
  return wire.bytes.subarray(start, start + SIGNATURE_BYTES);
}

export function isEmptySlot(slot: Uint8Array): boolean {
  return slot.every((b) => b === 0);
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Whether `signature` is `signer`'s ed25519 signature over the transaction's message (strict, `verifyEd25519`). */
export function signsMessage(wire: WireTransaction, signer: string, signature: Uint8Array): boolean {
  return verifyEd25519(signer, signature, messageBytes(wire));
}
