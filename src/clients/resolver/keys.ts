import { ed25519 } from "@noble/curves/ed25519";
import { base58 } from "@scure/base";
import type { HDAccount } from "viem";
import { mnemonicToAccount } from "viem/accounts";

/** Anvil's (and Hardhat's) public development mnemonic: its accounts hold value on local chains only. */
export const ANVIL_MNEMONIC = "test test test test test test test test test test test junk";

/** Anvil's dev account `index`; account 0 deploys the local contracts, resolvers use 1, 2, 3. */
export function anvilAccount(index: number): HDAccount {
  if (!Number.isInteger(index) || index < 0) throw new RangeError(`not an account index: ${index}`);
  return mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: index });
}

/** A Solana key that proves itself to the relay: ed25519 signatures over text, base58-encoded. */
export interface SolanaSigner {
  /** The public key, base58. */
  address: string;
  /** Base58 signature over the UTF-8 text: the auth proof and a Solana bid's commitment. */
  sign(text: string): string;
  /** Base58 signature over raw bytes: a transaction's message, answering `sign`. */
  signBytes(message: Uint8Array): string;
}

/**
 * From a Solana secret key: the 64 bytes of a keypair file (seed then public key) or a bare 32-byte
 * seed. A keypair whose second half is not the seed's public key is refused, since the proof it
 * produced would name the wrong address.
 */
export function solanaSigner(secretKey: Uint8Array): SolanaSigner {
  if (secretKey.length !== 32 && secretKey.length !== 64) {
    throw new RangeError(`a Solana secret key is 32 or 64 bytes, not ${secretKey.length}`);
  }
  const seed = secretKey.slice(0, 32);
  const publicKey = ed25519.getPublicKey(seed);
  if (secretKey.length === 64 && !secretKey.slice(32).every((b, i) => b === publicKey[i])) {
    throw new RangeError("the keypair's public half does not match its secret half");
  }
  return {
    address: base58.encode(publicKey),
    sign: (text) => base58.encode(ed25519.sign(new TextEncoder().encode(text), seed)),
    signBytes: (message) => base58.encode(ed25519.sign(message, seed)),
  };
}

/** A secret key as Solana tools write it: a JSON array of bytes (keypair file), or base58 text. */
export function parseSolanaSecret(text: string): Uint8Array {
  const trimmed = text.trim();
  if (trimmed.startsWith("[")) {
    const bytes: unknown = JSON.parse(trimmed);
    if (!Array.isArray(bytes) || !bytes.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) {
      throw new RangeError("a keypair file is a JSON array of bytes");
    }
    return Uint8Array.from(bytes as number[]);
  }
  return base58.decode(trimmed);
}
