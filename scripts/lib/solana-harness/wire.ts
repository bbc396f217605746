/**
 * Transactions as clients send them: base58 or base64 text of the wire bytes, at most one packet (1,232
 * bytes), checked the way a validator's RPC checks them before anything runs.
 */
import { base58, base64 } from "@scure/base";
import { VersionedMessage, VersionedTransaction } from "@solana/web3.js";
import { invalidParams } from "./jsonrpc";

/** The largest transaction a validator accepts (IPv6 MTU minus headers). */
export const PACKET_DATA_SIZE = 1232;

export type WireEncoding = "base58" | "base64";

export interface WireTransaction {
  bytes: Uint8Array;
  tx: VersionedTransaction;
  /** The signed bytes, exactly as sent. */
  messageBytes: Uint8Array;
  /** The first signature, base58: the transaction's id. */
  signature: string;
  version: "legacy" | number;
}

export function wireEncoding(value: unknown, fallback: WireEncoding): WireEncoding {
  if (value === undefined || value === null) return fallback;
  if (value === "base58" || value === "base64") return value;
  throw invalidParams(`unsupported encoding: ${String(value)}. Supported encodings: base58, base64`);
}

/** Decodes base58 or base64 text, refusing more than a packet's worth of bytes. */
export function decodeWire(data: unknown, encoding: WireEncoding, what: string): Uint8Array {
  if (typeof data !== "string") throw invalidParams(`expected a ${encoding} string`);
  const maxText = encoding === "base58" ? 1683 : 1644;
  if (data.length > maxText) {
    throw invalidParams(
      `${encoding} encoded ${what} too large: ${data.length} bytes (max: encoded/raw ${maxText}/${PACKET_DATA_SIZE})`,
    );
  }
  let bytes: Uint8Array;
  try {
    bytes = encoding === "base58" ? base58.decode(data) : base64.decode(data);
  } catch {
    throw invalidParams(`invalid ${encoding} encoding`);
  }
  if (bytes.length > PACKET_DATA_SIZE) {
    throw invalidParams(`decoded ${what} too large: ${bytes.length} bytes (max: ${PACKET_DATA_SIZE} bytes)`);
  }
  return bytes;
}

/** Where the message starts: after the compact-u16 signature count and the signatures. */
function messageOffset(bytes: Uint8Array): number {
  let count = 0;
  let offset = 0;
  for (let shift = 0; offset < 3; shift += 7) {
    const byte = bytes[offset++] ?? 0;
    count |= (byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) break;
  }
  return offset + count * 64;
}

export function parseTransaction(bytes: Uint8Array): WireTransaction {
  let tx: VersionedTransaction;
  try {
    tx = VersionedTransaction.deserialize(bytes);
  } catch (err) {
    throw invalidParams(`failed to deserialize VersionedTransaction: ${err instanceof Error ? err.message : err}`);
  }
  const version = tx.message.version;
  const required = tx.message.header.numRequiredSignatures;
  const keys = tx.message.staticAccountKeys.map((k) => k.toBase58());
  if (
    tx.signatures.length === 0 ||
    tx.signatures.length !== required ||
    required > keys.length ||
    new Set(keys).size !== keys.length
  ) {
    throw invalidParams("invalid transaction: Transaction failed to sanitize accounts offsets correctly");
  }
  const messageBytes =
    version === "legacy" || version === 0 ? bytes.subarray(messageOffset(bytes)) : tx.message.serialize();
  return { bytes, tx, messageBytes, signature: base58.encode(tx.signatures[0] as Uint8Array), version };
}

export function decodeTransaction(data: unknown, encoding: WireEncoding): WireTransaction {
  return parseTransaction(decodeWire(data, encoding, "transaction"));
}

export function decodeMessage(data: unknown): VersionedMessage {
  const bytes = decodeWire(data, "base64", "message");
  try {
    return VersionedMessage.deserialize(bytes);
  } catch (err) {
    throw invalidParams(`failed to deserialize message: ${err instanceof Error ? err.message : err}`);
  }
}
