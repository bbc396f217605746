import { type Abi, BaseError, decodeErrorResult, type Hex, HttpRequestError, TimeoutError } from "viem";
import { ChainUnavailableError } from "../settler";
import { limitReactorAbi } from "./abi/limit-reactor";
import { permit2Abi } from "./abi/permit2";
import { rfqExecutorAbi } from "./abi/rfq-executor";
import { testTokenAbi } from "./abi/test-token";
import { validationAbi } from "./abi/validation";
import type { DecodedRevert } from "./revert-reasons";

/** Every error a fill can revert with, wherever it is raised, once each, so revert data decodes by name. */
const fillErrorsAbi: Abi = (() => {
  const seen = new Set<string>();
  return [...rfqExecutorAbi, ...limitReactorAbi, ...permit2Abi, ...validationAbi, ...testTokenAbi].filter((item) => {
    if (item.type !== "error" || seen.has(item.name)) return false;
    seen.add(item.name);
    return true;
  });
})();

/** Whether an error means the RPC did not answer, rather than answering no. */
export function isTransportError(e: unknown): boolean {
  if (e instanceof BaseError) return Boolean(e.walk((x) => x instanceof HttpRequestError || x instanceof TimeoutError));
  return e instanceof TypeError;
}

export function shortMessage(e: unknown): string {
  if (e instanceof BaseError) return e.shortMessage;
  return e instanceof Error ? e.message : String(e);
}

/** Runs an RPC read; a transport failure becomes ChainUnavailableError. */
export async function rpc<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (isTransportError(e)) throw new ChainUnavailableError(`${what}: ${shortMessage(e)}`);
    throw e;
  }
}

/** The contract error a failed call carries anywhere in its error chain, decoded by name; null if none. */
export function decodedRevert(e: unknown): DecodedRevert | null {
  if (!(e instanceof BaseError)) return null;
  const found = e.walk((x) => {
    const data = (x as { data?: unknown }).data;
    return typeof data === "string" && /^0x[0-9a-fA-F]{8,}$/.test(data);
  }) as { data?: string } | null;
  const data = (found?.data as Hex | undefined) ?? null;
  return data ? decodedRevertData(data) : null;
}

/** Revert data decoded by name with the fill's errors; null if no error of theirs matches. */
export function decodedRevertData(data: Hex): DecodedRevert | null {
  try {
    const decoded = decodeErrorResult({ abi: fillErrorsAbi, data });
    return { name: decoded.errorName, args: decoded.args ?? [] };
  } catch {
    return null;
  }
}
