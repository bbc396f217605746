import {
  concat,
  encodeAbiParameters,
  getTypesForEIP712Domain,
  type Hex,
  hashDomain,
  hashStruct,
  hexToBytes,
  keccak256,
  type TypedDataDomain,
  toHex,
} from "viem";

type Types = Record<string, readonly { name: string; type: string }[]>;

interface Typed {
  domain: TypedDataDomain;
  types: Types;
  primaryType: string;
  message: object;
}

const separators = new Map<string, Hex>();
const MAX_CACHED_DOMAINS = 1024;

/** The domain's separator, kept per domain: a corridor's bids all share one. */
function domainSeparator(domain: TypedDataDomain): Hex {
  const key = JSON.stringify(domain, (_, v) => (typeof v === "bigint" ? v.toString() : v));
  let separator = separators.get(key);
  if (!separator) {
    const types = { EIP712Domain: getTypesForEIP712Domain({ domain }) };
    separator = hashDomain({ domain: domain as Record<string, unknown>, types } as never);
    if (separators.size >= MAX_CACHED_DOMAINS) separators.clear();
    separators.set(key, separator);
  }
  return separator;
}

/**
 * The EIP-712 digest `keccak256(0x1901 ‖ domainSeparator ‖ hashStruct(message))`, as viem's
 * `hashTypedData` computes it, for typed data built from checked terms (the relay's own, or an rfq's
 * `toSign` its node checked against the rfq): the domain separator is kept per domain, and the message is
 * not validated again (its addresses' checksums alone cost a keccak each).
 */
export function typedDataDigest(typed: Typed): Hex {
  const struct = hashStruct({ data: typed.message, primaryType: typed.primaryType, types: typed.types } as never);
  return keccak256(concat(["0x1901", domainSeparator(typed.domain), struct]));
}

/** EIP-712 `encodeType`: the primary type, then every struct type it refers to, sorted by name. */
function encodeType(primaryType: string, types: Types): string {
  const found = new Set<string>();
  const visit = (name: string) => {
    if (found.has(name) || !types[name]) return;
    found.add(name);
    for (const field of types[name]) visit(field.type.replace(/\[.*$/, ""));
  };
  visit(primaryType);
  const rest = [...found].filter((name) => name !== primaryType).sort();
  return [primaryType, ...rest]
    .map((name) => `${name}(${(types[name] ?? []).map((f) => `${f.type} ${f.name}`).join(",")})`)
    .join("");
}

/**
 * One field's 32-byte word in EIP-712 `encodeData`: a nested struct's hash, or an atomic value's ABI word.
 * Dynamic fields (`string`, `bytes`, arrays) are not among what the relay's bids sign.
 */
function fieldWord(type: string, value: unknown, types: Types): Hex {
  if (types[type]) return hashStruct({ data: value, primaryType: type, types } as never);
  if (type === "string" || type === "bytes" || type.endsWith("]")) {
    throw new Error(`typed data with a dynamic field (${type}) has no template`);
  }
  return encodeAbiParameters([{ type }], [value]);
}

/**
 * The digests of typed data that differ only in one top-level `uint256` field, as a function of that
 * field: every bid of one auction signs the same fill but for its `outputAmount`. The struct's encoding is
 * built once; a digest then writes its amount into the encoding's word and takes two keccaks, where
 * `typedDataDigest` encodes the whole message again (bench/README.md, "What a quote and a submission cost now").
 */
export function digestsByAmount(typed: Typed, field: string): (amount: bigint) => Hex {
  const fields = typed.types[typed.primaryType] ?? [];
  const at = fields.findIndex((f) => f.name === field && f.type === "uint256");
  if (at < 0) throw new Error(`${typed.primaryType} has no uint256 field ${field}`);
  const message = typed.message as Record<string, unknown>;
  const words = [
    keccak256(toHex(encodeType(typed.primaryType, typed.types))),
    ...fields.map((f, i) => (i === at ? toHex(0n, { size: 32 }) : fieldWord(f.type, message[f.name], typed.types))),
  ];
  const encoding = hexToBytes(concat(words));
  const offset = 32 * (at + 1);
  const outer = new Uint8Array(66);
  outer.set([0x19, 0x01]);
  outer.set(hexToBytes(domainSeparator(typed.domain)), 2);
  return (amount) => {
    const bytes = encoding.slice();
    bytes.set(hexToBytes(toHex(amount, { size: 32 })), offset);
    outer.set(keccak256(bytes, "bytes"), 34);
    return keccak256(outer);
  };
}
