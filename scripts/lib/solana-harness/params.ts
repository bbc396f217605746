/** Reading the positional parameters of the Solana JSON-RPC methods, with the errors validators give. */
import { base58 } from "@scure/base";
import type { Commitment } from "./commitment";
import { invalidParams, RpcError, type RpcParams } from "./jsonrpc";

/** The code of a read that names a `minContextSlot` the node has not reached. */
export const MIN_CONTEXT_SLOT_NOT_REACHED = -32016;

export type Config = Record<string, unknown>;

export function positional(params: RpcParams): unknown[] {
  if (params === undefined) return [];
  if (!Array.isArray(params)) throw invalidParams("expected an array of parameters");
  return params;
}

export function required(params: unknown[], index: number, what: string): unknown {
  if (params.length <= index || params[index] === undefined) throw invalidParams(`missing ${what}`);
  return params[index];
}

export function configAt(params: unknown[], index: number): Config {
  const value = params[index];
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) throw invalidParams("expected a configuration object");
  return value as Config;
}

/** A base58 public key (32 bytes). */
export function pubkey(value: unknown): string {
  if (typeof value !== "string") throw invalidParams("Invalid");
  let bytes: Uint8Array;
  try {
    bytes = base58.decode(value);
  } catch {
    throw new RpcError(-32602, "Invalid param: Invalid");
  }
  if (bytes.length !== 32) throw new RpcError(-32602, "Invalid param: WrongSize");
  return value;
}

/** A base58 signature (64 bytes). */
export function signature(value: unknown): string {
  let bytes: Uint8Array | undefined;
  try {
    bytes = typeof value === "string" ? base58.decode(value) : undefined;
  } catch {
    bytes = undefined;
  }
  if (bytes?.length !== 64) throw new RpcError(-32602, "Invalid param: Invalid");
  return value as string;
}

const COMMITMENTS: Record<string, Commitment> = {
  processed: "processed",
  confirmed: "confirmed",
  finalized: "finalized",
  // Names older clients still send.
  recent: "processed",
  single: "confirmed",
  singleGossip: "confirmed",
  root: "finalized",
  max: "finalized",
};

/** The commitment a configuration asks for; validators default to `finalized`. */
export function commitmentOf(config: Config, key = "commitment"): Commitment {
  const value = config[key];
  if (value === undefined || value === null) return "finalized";
  const commitment = typeof value === "string" ? COMMITMENTS[value] : undefined;
  if (!commitment) throw invalidParams(`unknown commitment: ${String(value)}`);
  return commitment;
}

/** Refuses a read that needs a slot the chain has not reached. */
export function checkMinContextSlot(config: Config, currentSlot: number): void {
  const min = config.minContextSlot;
  if (typeof min === "number" && min > currentSlot) {
    throw new RpcError(MIN_CONTEXT_SLOT_NOT_REACHED, "Minimum context slot has not been reached", {
      contextSlot: currentSlot,
    });
  }
}

export function nonNegativeInteger(value: unknown, what: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw invalidParams(`${what} must be a non-negative integer`);
  }
  return value;
}
