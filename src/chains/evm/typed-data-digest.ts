import {
  concat,
  getTypesForEIP712Domain,
  type Hex,
  hashDomain,
  hashStruct,
  keccak256,
  type TypedDataDomain,
} from "viem";

type Types = Record<string, readonly { name: string; type: string }[]>;

const separators = new Map<string, Hex>();
const MAX_CACHED_DOMAINS = 1024;

/**
 * The EIP-712 digest `keccak256(0x1901 ‖ domainSeparator ‖ hashStruct(message))`, as viem's
 * `hashTypedData` computes it, for typed data the relay built itself from checked terms: the domain
 * separator is kept per domain (a corridor's bids all share one), and the message is not validated again
 * (its addresses' checksums alone cost a keccak each). Used on every bid (bench/README.md, "What a quote and a submission cost now").
 */
export function typedDataDigest(typed: {
  domain: TypedDataDomain;
  types: Types;
  primaryType: string;
  message: object;
}): Hex {
  const key = JSON.stringify(typed.domain, (_, v) => (typeof v === "bigint" ? v.toString() : v));
  let separator = separators.get(key);
  if (!separator) {
    const types = { EIP712Domain: getTypesForEIP712Domain({ domain: typed.domain }) };
    separator = hashDomain({ domain: typed.domain as Record<string, unknown>, types } as never);
    if (separators.size >= MAX_CACHED_DOMAINS) separators.clear();
    separators.set(key, separator);
  }
  const struct = hashStruct({ data: typed.message, primaryType: typed.primaryType, types: typed.types } as never);
  return keccak256(concat(["0x1901", separator, struct]));
}
