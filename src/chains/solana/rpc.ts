import { ChainUnavailableError } from "../settler";

/** How long one Solana JSON-RPC call may take before the chain counts as unavailable. */
export const RPC_TIMEOUT_MS = 8_000;

/** An answer of the RPC that is a JSON-RPC error: the node answered, and answered no. */
export class SolanaRpcError extends Error {
  override readonly name = "SolanaRpcError";
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown,
  ) {
    super(message);
  }
}

/**
 * Calls `method` on a Solana JSON-RPC endpoint with `fetch` (no WebSocket, so it runs in a Worker).
 * A network error, a timeout (`timeoutMs`, `RPC_TIMEOUT_MS` unless given), an HTTP error or a body that
 * is not a JSON-RPC answer throws `ChainUnavailableError`; a JSON-RPC error throws `SolanaRpcError`.
 */
export async function solanaRpc<T>(
  rpcUrl: string,
  method: string,
  params: unknown[],
  timeoutMs = RPC_TIMEOUT_MS,
): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let body: { result?: T; error?: { code?: unknown; message?: unknown; data?: unknown } };
  try {
    const res = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      signal: controller.signal,
    });
    if (!res.ok) throw new ChainUnavailableError(`${method}: HTTP ${res.status}`);
    body = (await res.json()) as typeof body;
  } catch (e) {
    if (e instanceof ChainUnavailableError) throw e;
    throw new ChainUnavailableError(`${method}: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    clearTimeout(timer);
  }
  if (body?.error) {
    const { code, message, data } = body.error;
    throw new SolanaRpcError(typeof code === "number" ? code : 0, String(message ?? "error"), data);
  }
  if (!body || !("result" in body)) throw new ChainUnavailableError(`${method}: not a JSON-RPC answer`);
  return body.result as T;
}
