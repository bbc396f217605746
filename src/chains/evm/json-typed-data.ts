import type { Address, Hex, TypedDataDomain } from "viem";
import type { BidCommitment, Eip712Commitment } from "../../protocol";

/** EIP-712 typed data as it travels in JSON: integers as decimal strings (an rfq's `toSign`, a quote's `typedData`). */
export type JsonTypedData = Omit<Eip712Commitment, "scheme">;

export interface TypedField {
  name: string;
  type: string;
}

/** `toSign` made ready for viem's `signTypedData` / `recoverTypedDataAddress`. */
export interface CompletedTypedData {
  domain: TypedDataDomain;
  types: Record<string, TypedField[]>;
  primaryType: string;
  message: Record<string, unknown>;
}

export class ToSignError extends Error {
  override readonly name = "ToSignError";
}

/** An rfq's `toSign` as EIP-712 typed data; throws for any other scheme. */
export function eip712ToSign(toSign: BidCommitment): Eip712Commitment {
  if (toSign.scheme !== "eip712") throw new ToSignError(`toSign is ${toSign.scheme}, not eip712`);
  return toSign;
}

const INTEGER_TYPE = /^(u?)int(\d*)$/;
const ARRAY_TYPE = /^(.+)\[(\d*)\]$/;
const DECIMAL = /^-?(0|[1-9]\d*)$/;

/**
 * The typed data a resolver signs for a bid, and the relay verifies it against: `toSign` with
 * `outputAmount` filled in (and, for a bid of a part, `sellAmount` in the rfq's place) and every integer field of the message (nested structs and arrays included)
 * turned from its decimal string into a bigint. Both sides call this one function, so a bid signed by
 * the reference resolver hashes to exactly what the relay recovers. Throws a ToSignError when `toSign`
 * does not describe a message its types can encode, rather than let a signature cover something else.
 */
export function completeToSign(toSign: JsonTypedData, outputAmount: bigint, sellAmount?: bigint): CompletedTypedData {
  const { types, primaryType } = toSign;
  const fields = types[primaryType];
  if (!fields) throw new ToSignError(`primaryType ${primaryType} has no entry in types`);
  const output = fields.find((f) => f.name === "outputAmount");
  if (!output) throw new ToSignError(`${primaryType} has no outputAmount field`);
  if (sellAmount !== undefined && !fields.some((f) => f.name === "sellAmount")) {
    throw new ToSignError(`${primaryType} has no sellAmount field: it takes no parts`);
  }
  // A part of the rfq (docs/legs.md) signs its own sell amount in the rfq's place.
  const part = sellAmount === undefined ? {} : { sellAmount: sellAmount.toString() };
  const message = { ...toSign.message, outputAmount: outputAmount.toString(), ...part };
  return {
    domain: completeDomain(toSign.domain),
    types: Object.fromEntries(Object.entries(types).map(([k, v]) => [k, v.map((f) => ({ ...f }))])),
    primaryType,
    message: encodeStruct(types, primaryType, message, primaryType),
  };
}

/**
 * Typed data that travelled as JSON (integers as decimal strings), such as a quote's `typedData` for the
 * taker, made ready for viem's `signTypedData` with the same care as `completeToSign`. An `EIP712Domain`
 * entry in `types` is kept: viem then hashes the domain by it, exactly as a wallet's
 * `eth_signTypedData_v4` does.
 */
export function typedDataFromJson(json: JsonTypedData): CompletedTypedData {
  const { types, primaryType } = json;
  if (!types[primaryType]) throw new ToSignError(`primaryType ${primaryType} has no entry in types`);
  return {
    domain: completeDomain(json.domain),
    types: Object.fromEntries(Object.entries(types).map(([k, v]) => [k, v.map((f) => ({ ...f }))])),
    primaryType,
    message: encodeStruct(types, primaryType, json.message, primaryType),
  };
}

function encodeStruct(
  types: JsonTypedData["types"],
  typeName: string,
  value: unknown,
  path: string,
): Record<string, unknown> {
  const fields = types[typeName];
  if (!fields) throw new ToSignError(`${path}: unknown type ${typeName}`);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ToSignError(`${path}: expected a ${typeName} object`);
  }
  const record = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const v = record[field.name];
    if (v === undefined || v === null) throw new ToSignError(`${path}.${field.name}: missing`);
    out[field.name] = encodeValue(types, field.type, v, `${path}.${field.name}`);
  }
  return out;
}

function encodeValue(types: JsonTypedData["types"], type: string, value: unknown, path: string): unknown {
  const array = ARRAY_TYPE.exec(type);
  if (array) {
    const element = array[1] ?? "";
    const length = array[2] ?? "";
    if (!Array.isArray(value)) throw new ToSignError(`${path}: expected an array of ${element}`);
    if (length !== "" && value.length !== Number(length)) {
      throw new ToSignError(`${path}: expected ${length} elements, got ${value.length}`);
    }
    return value.map((v, i) => encodeValue(types, element, v, `${path}[${i}]`));
  }
  const integer = INTEGER_TYPE.exec(type);
  if (integer) return encodeInteger(integer[1] === "u", Number(integer[2] || "256"), value, path);
  if (types[type]) return encodeStruct(types, type, value, path);
  return value;
}

function encodeInteger(unsigned: boolean, bits: number, value: unknown, path: string): bigint {
  // JSON has no bigint: integers travel as decimal strings, never as numbers that may have lost precision.
  if (typeof value !== "string" || !DECIMAL.test(value)) throw new ToSignError(`${path}: expected a decimal string`);
  const n = BigInt(value);
  const min = unsigned ? 0n : -(1n << BigInt(bits - 1));
  const max = unsigned ? (1n << BigInt(bits)) - 1n : (1n << BigInt(bits - 1)) - 1n;
  if (n < min || n > max)
    throw new ToSignError(`${path}: ${value} is out of range for ${unsigned ? "u" : ""}int${bits}`);
  return n;
}

/**
 * viem includes `chainId` in the domain type only when it is a number or bigint, so a chain id that
 * arrived as a string must become one or the domain hash silently changes.
 */
function completeDomain(domain: JsonTypedData["domain"]): TypedDataDomain {
  const out: TypedDataDomain = {};
  for (const [key, value] of Object.entries(domain)) {
    switch (key) {
      case "name":
      case "version":
        if (typeof value !== "string") throw new ToSignError(`domain.${key}: expected a string`);
        out[key] = value;
        break;
      case "chainId":
        if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) out.chainId = value;
        else out.chainId = encodeInteger(true, 256, value, "domain.chainId");
        break;
      case "verifyingContract":
        if (typeof value !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(value)) {
          throw new ToSignError("domain.verifyingContract: expected an address");
        }
        out.verifyingContract = value as Address;
        break;
      case "salt":
        if (typeof value !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(value)) {
          throw new ToSignError("domain.salt: expected 32 bytes of hex");
        }
        out.salt = value as Hex;
        break;
      default:
        throw new ToSignError(`domain.${key}: not an EIP-712 domain field`);
    }
  }
  return out;
}
