/**
 * The local Solana chain over HTTP: JSON-RPC 2.0 on POST (any path), `GET /health`, loopback by default.
 * A timer moves the chain a slot every 400 ms. See docs/local-stack.md, "The local Solana chain".
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { LiteSVM } from "litesvm";
import { type LocalSolanaAccounts, localSolanaAccounts } from "./accounts";
import { LocalChain } from "./chain";
import { faucetKeypair, seedGenesis } from "./genesis";
import { handleJsonRpc } from "./jsonrpc";
import { solanaDispatch } from "./rpc";

export const DEFAULT_SOLANA_PORT = 8899;
export const DEFAULT_SLOT_MS = 400;
/** Larger request bodies are refused (413). */
const MAX_BODY_BYTES = 1024 * 1024;

export interface SolanaHarnessOptions {
  /** 8899 by default; 0 for any free port. */
  port?: number;
  host?: string;
  /** Milliseconds per slot, 400 by default. Tests may shorten it to reach `finalized` sooner. */
  slotMs?: number;
}

export interface SolanaHarness {
  url: string;
  port: number;
  /** The chain behind the RPC: its slot, ledger and `advance(n)` to move several slots at once. */
  chain: LocalChain;
  svm: LiteSVM;
  accounts: LocalSolanaAccounts;
  stop(): Promise<void>;
}

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "POST, GET, OPTIONS",
  "access-control-allow-headers": "content-type, solana-client",
};

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on("end", () => resolve(size > MAX_BODY_BYTES ? null : Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function send(res: ServerResponse, status: number, body: string, type = "application/json"): void {
  res.writeHead(status, { ...CORS, "content-type": type, "content-length": Buffer.byteLength(body) });
  res.end(body);
}

export async function startSolanaHarness(options: SolanaHarnessOptions = {}): Promise<SolanaHarness> {
  const host = options.host ?? "127.0.0.1";
  const slotMs = options.slotMs ?? DEFAULT_SLOT_MS;
  const accounts = localSolanaAccounts();
  const chain = new LocalChain();
  seedGenesis(chain.svm, accounts);
  const dispatch = solanaDispatch({ chain, faucet: faucetKeypair() });

  const server = createServer(async (req, res) => {
    try {
      if (req.method === "OPTIONS") return send(res, 204, "", "text/plain");
      if (req.method === "GET" && req.url?.split("?")[0] === "/health") return send(res, 200, "ok", "text/plain");
      if (req.method !== "POST")
        return send(res, 405, "Used HTTP Method is not allowed. POST or OPTIONS is required", "text/plain");
      const body = await readBody(req);
      if (body === null) return send(res, 413, "Request body too large", "text/plain");
      const answer = handleJsonRpc(body, dispatch);
      send(res, 200, answer ?? "");
    } catch (err) {
      send(res, 500, err instanceof Error ? err.message : "Internal error", "text/plain");
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? DEFAULT_SOLANA_PORT, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const timer = setInterval(() => chain.tick(), slotMs);
  timer.unref();
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    port,
    chain,
    svm: chain.svm,
    accounts,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        clearInterval(timer);
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
