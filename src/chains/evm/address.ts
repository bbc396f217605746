import { getAddress } from "viem";
import type { AddressRules } from "../address-rules";

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * EIP-55: a mixed-case EVM address carries a checksum and must match it, so a typo is caught; an address
 * in one case throughout carries none and is accepted as it is.
 */
function isEvmAddress(value: string): boolean {
  if (!EVM_ADDRESS.test(value)) return false;
  const digits = value.slice(2);
  if (digits === digits.toLowerCase() || digits === digits.toUpperCase()) return true;
  return getAddress(value) === value;
}

/** EVM addresses: hex, compared case-insensitively, shown in EIP-55 checksum case. */
export const evmAddressRules: AddressRules = {
  test: isEvmAddress,
  description: "a 0x-prefixed 20-byte hex address (EIP-55 checksum if mixed-case)",
  normalise: (address) => address.toLowerCase(),
  canonical: (address) => (EVM_ADDRESS.test(address) ? getAddress(address) : address),
};
