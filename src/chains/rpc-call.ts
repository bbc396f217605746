/**
 * One JSON-RPC call with the caller's signal (the health check's probes, docs/operations.md "Health");
 * rejects on a network error, an HTTP error or an RPC error, naming the method.
 */
export async function rpcCall<T>(rpcUrl: string, method: string, params: unknown[], signal: AbortSignal): Promise<T> {
  const res = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    signal,
  });
  if (!res.ok) throw new Error(`${method}: HTTP ${res.status}`);
  const body = (await res.json()) as { result?: T; error?: { message?: string } };
  if (body.error || !("result" in body))
    throw new Error(`${method}: ${body.error?.message ?? "not a JSON-RPC answer"}`);
  return body.result as T;
}
