import { type Address, decodeAbiParameters, type Hex } from "viem";
import { ChainUnavailableError } from "../settler";

/** One read-only contract call of a batch. */
export interface EthCall {
  to: Address;
  data: Hex;
}

/** A batch's answers in the order of its calls: the return data, or the node's message for a call it refused. */
export type CallAnswer = { ok: true; data: Hex } | { ok: false; error: string };

export type Fetcher = (url: string, init: RequestInit) => Promise<Response>;

/** A fetcher that also stops when `signal` aborts (a caller's deadline), beside the batch's own timeout. */
export const fetcherWith =
  (signal: AbortSignal): Fetcher =>
  (url, init) =>
    fetch(url, { ...init, signal: init.signal ? AbortSignal.any([init.signal, signal]) : signal });

/** How long a batch may take before the chain counts as unavailable. */
const BATCH_TIMEOUT_MS = 5_000;

/**
 * A batch's answers in the order of its requests: the result, or the node's message for one it refused
 * (with the revert data, when a call reverted).
 */
export type RpcAnswer = { ok: true; result: unknown } | { ok: false; error: string; data?: string };

/** The most requests one batch carries: nodes commonly refuse longer batches. */
export const MAX_BATCH_REQUESTS = 100;

/**
 * Sends `requests` in ONE JSON-RPC batch request, so every read sees the same chain at the cost of one
 * round trip (docs/reliability.md, "Blame"); more than `MAX_BATCH_REQUESTS` go as several batches side by
 * side (the indexer's receipts of a busy wallet), the answers still in the requests' order. Throws when
 * the node does not answer, answers an HTTP error, or answers something that is not a batch.
 */
export async function jsonRpcBatch(
  rpcUrl: string,
  requests: readonly { method: string; params: readonly unknown[] }[],
  fetcher: Fetcher = (url, init) => fetch(url, init),
): Promise<RpcAnswer[]> {
  if (requests.length === 0) return [];
  if (requests.length > MAX_BATCH_REQUESTS) {
    const batches: (typeof requests)[] = [];
    for (let at = 0; at < requests.length; at += MAX_BATCH_REQUESTS) {
      batches.push(requests.slice(at, at + MAX_BATCH_REQUESTS));
    }
    return (await Promise.all(batches.map((batch) => jsonRpcBatch(rpcUrl, batch, fetcher)))).flat();
  }
  const body = requests.map(({ method, params }, id) => ({ jsonrpc: "2.0", id, method, params }));
  // A timer cleared once the answer is in, not AbortSignal.timeout: a pending timer keeps a Durable
  // Object from hibernating.
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new Error("the RPC did not answer in time")), BATCH_TIMEOUT_MS);
  try {
    const res = await fetcher(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: abort.signal,
    });
    if (!res.ok) throw new Error(`the RPC answered ${res.status}`);
    return rpcAnswersInOrder(requests.length, await res.json());
  } finally {
    clearTimeout(timer);
  }
}

/** A batch answer (in any order, as JSON-RPC allows) put back in the order of the requests, by id. */
export function rpcAnswersInOrder(count: number, answers: unknown): RpcAnswer[] {
  if (!Array.isArray(answers)) throw new Error("the RPC did not answer the batch with a batch");
  type Answer = { id?: unknown; result?: unknown; error?: { message?: unknown; data?: unknown } } | null;
  const byId = new Map((answers as Answer[]).map((a) => [a?.id, a]));
  return Array.from({ length: count }, (_, id): RpcAnswer => {
    const answer = byId.get(id);
    if (answer && answer.result !== undefined && !answer.error) return { ok: true, result: answer.result };
    const error = String(answer?.error?.message ?? "no answer");
    const data = answer?.error?.data;
    return typeof data === "string" ? { ok: false, error, data } : { ok: false, error };
  });
}

/** A batch's answer to an `eth_call`: its return data, or why there is none. */
export const asCallAnswer = (a: RpcAnswer): CallAnswer =>
  !a.ok
    ? { ok: false, error: a.error }
    : typeof a.result === "string"
      ? { ok: true, data: a.result as Hex }
      : { ok: false, error: "not hex" };

/** The JSON-RPC request of `call` as an `eth_call` at the latest block. */
export const ethCallRequest = (call: EthCall) => ({ method: "eth_call", params: [call, "latest"] });

/** `calls` as `eth_call`s at the latest block, in one batch (`jsonRpcBatch`). */
export async function ethCallBatch(
  rpcUrl: string,
  calls: readonly EthCall[],
  fetcher?: Fetcher,
): Promise<CallAnswer[]> {
  return (await jsonRpcBatch(rpcUrl, calls.map(ethCallRequest), fetcher)).map(asCallAnswer);
}

/**
 * The one uint256 an answer returns; throws naming `what` when the call failed or returned nothing
 * (an address with no contract answers "0x", which does not decode).
 */
export function uintOf(answer: CallAnswer | undefined, what: string): bigint {
  if (!answer?.ok) throw new Error(`${what}: ${answer?.error ?? "no answer"}`);
  try {
    return decodeAbiParameters([{ type: "uint256" }], answer.data)[0];
  } catch {
    throw new Error(`${what}: returned ${answer.data}`);
  }
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** `requests` in one batch (`jsonRpcBatch`); a node that does not answer is `ChainUnavailableError` naming `what`. */
export async function rpcBatch(
  rpcUrl: string,
  what: string,
  requests: readonly { method: string; params: readonly unknown[] }[],
  fetcher?: Fetcher,
): Promise<RpcAnswer[]> {
  try {
    return await jsonRpcBatch(rpcUrl, requests, fetcher);
  } catch (e) {
    throw new ChainUnavailableError(`${what}: ${messageOf(e)}`);
  }
}

/**
 * The uint256 each `eth_call` answer returns; `ChainUnavailableError` (naming `what`) when the node refused
 * one, so a caller never mistakes a missing read for a zero.
 */
export function uintsOf(answers: readonly RpcAnswer[], what: string): bigint[] {
  try {
    return answers.map((answer, i) => uintOf(asCallAnswer(answer), `call ${i}`));
  } catch (e) {
    throw new ChainUnavailableError(`${what}: ${messageOf(e)}`);
  }
}

/** A JSON-RPC quantity answer (`eth_estimateGas`) as a bigint; `ChainUnavailableError` naming `what` if it is not one. */
export function quantityOf(answer: RpcAnswer | undefined, what: string): bigint {
  if (answer?.ok && typeof answer.result === "string" && /^0x[0-9a-fA-F]+$/.test(answer.result)) {
    return BigInt(answer.result);
  }
  throw new ChainUnavailableError(`${what}: ${answer?.ok ? "not a quantity" : (answer?.error ?? "no answer")}`);
}

/** The uint256 each call returns, read in one batch (`rpcBatch`, `uintsOf`). */
export async function readUints<const C extends readonly EthCall[]>(
  rpcUrl: string,
  what: string,
  calls: C,
  fetcher?: Fetcher,
): Promise<{ [K in keyof C]: bigint }> {
  const answers = await rpcBatch(rpcUrl, what, calls.map(ethCallRequest), fetcher);
  return uintsOf(answers, what) as { [K in keyof C]: bigint };
}
