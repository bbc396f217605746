import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";
import { startSolanaHarness } from "../../scripts/lib/solana-harness/server";
import { readBody, send } from "../support/proxy-http";

declare module "vitest" {
  export interface ProvidedContext {
    /** The LiteSVM harness every test of the `solana` project shares (scripts/lib/solana-harness/). */
    solanaRpcUrl: string;
    /** The relay's Solana RPC: a proxy in front of that harness that can be told to misbehave. */
    relaySolanaRpcUrl: string;
  }
}

/** Slots of 100 ms, so a landed swap is `finalized` (32 slots later) in about 3 s. */
const SLOT_MS = 100;

/**
 * How the proxy misbehaves, set by `POST /__fault {mode}`:
 * - `none`: forwards every request;
 * - `down`: answers 503 to everything, as an RPC endpoint that is down;
 * - `refuse-send`: answers the next sendTransaction with a JSON-RPC error without forwarding it, then `none`;
 * - `lose-send-answer`: forwards the next sendTransaction, then answers 502 instead of its result (the chain
 *   has the swap; the keeper does not know it), then `none`;
 * - `swallow-sends`: answers every sendTransaction as accepted without forwarding it (a swap lost on its way);
 * - `bare-receipts`: answers getTransaction without `blockTime` (null) and without
 *   `meta.computeUnitsConsumed`, as a node that keeps neither.
 * `GET /__sent` lists the transactions forwarded by sendTransaction, in order (base64); `POST /__advance
 * {slots}` moves the chain that many slots at once (to expire a blockhash without waiting).
 */
type Fault = "none" | "down" | "refuse-send" | "lose-send-answer" | "swallow-sends" | "bare-receipts";

interface Call {
  id: unknown;
  method: string;
  params: unknown[];
}

/** A getTransaction answer without the block's time and the compute units consumed. */
function bare(answer: string): string {
  const body = JSON.parse(answer) as { result?: { blockTime?: number | null; meta?: Record<string, unknown> } | null };
  if (body.result) {
    body.result.blockTime = null;
    if (body.result.meta) delete body.result.meta.computeUnitsConsumed;
  }
  return JSON.stringify(body);
}

/**
 * One local Solana chain for the `solana` project, its seeded accounts funded (the harness's genesis),
 * and a fault-injecting proxy the relay reaches it through. The project runs its files one at a time,
 * since they share the keeper and the accounts.
 */
export default async function setup(project: TestProject) {
  const harness = await startSolanaHarness({ port: 0, slotMs: SLOT_MS });
  let fault: Fault = "none";
  const sent: string[] = [];
  const server = createServer(async (req, res) => {
    try {
      const body = await readBody(req);
      if (req.url === "/__fault") {
        if (req.method === "POST") fault = (JSON.parse(body) as { mode: Fault }).mode;
        return send(res, 200, JSON.stringify({ mode: fault }));
      }
      if (req.url === "/__sent") return send(res, 200, JSON.stringify(sent));
      if (req.url === "/__advance") {
        harness.chain.advance((JSON.parse(body) as { slots: number }).slots);
        return send(res, 200, "{}");
      }
      if (fault === "down") return send(res, 503, "unavailable");
      const call = JSON.parse(body) as Call;
      const sending = call.method === "sendTransaction";
      if (sending && fault === "refuse-send") {
        fault = "none";
        const error = { code: -32002, message: "Transaction simulation failed: refused by the test proxy" };
        return send(res, 200, JSON.stringify({ jsonrpc: "2.0", id: call.id, error }));
      }
      if (sending && fault === "swallow-sends") {
        return send(res, 200, JSON.stringify({ jsonrpc: "2.0", id: call.id, result: "swallowed" }));
      }
      const upstream = await fetch(harness.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      const text = await upstream.text();
      const answer = call.method === "getTransaction" && fault === "bare-receipts" ? bare(text) : text;
      if (sending) sent.push(String(call.params[0]));
      if (sending && fault === "lose-send-answer") {
        fault = "none";
        return send(res, 502, "bad gateway");
      }
      send(res, upstream.status, answer);
    } catch (e) {
      send(res, 500, String(e));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  project.provide("solanaRpcUrl", harness.url);
  project.provide("relaySolanaRpcUrl", `http://127.0.0.1:${port}`);
  return async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await harness.stop();
  };
}
