import type { Hex } from "viem";

/** A keeper private key as the secret holds it: 32 bytes of hex, with or without 0x. */
export function parseKeeperKey(secret: string | undefined): Hex | null {
  const key = secret?.trim() ?? "";
  const hex = key.startsWith("0x") ? key.slice(2) : key;
  return /^[0-9a-fA-F]{64}$/.test(hex) ? `0x${hex}` : null;
}
