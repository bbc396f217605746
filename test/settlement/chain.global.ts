import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type Hex, parseTransaction } from "viem";
import type { TestProject } from "vitest/node";
import { anvilAccount, deployContracts, fund } from "../../scripts/lib/evm-deploy";
import { startAnvil } from "../support/anvil";
import { readBody, send } from "../support/proxy-http";
import { RESOLVER_ACCOUNTS, TOKEN_FUNDING } from "./accounts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The anvil every settlement test shares, for the tests' own reads and writes. */
    chainRpcUrl: string;
    /** The keeper's RPC endpoint: a proxy in front of that anvil that can be told to misbehave. */
    keeperRpcUrl: string;
  }
}

/**
 * How the proxy misbehaves, set by `POST /__fault {mode}` and read back by `GET /__fault`:
 * - `none`: forwards every request;
 * - `down`: answers 503 to everything, as an RPC endpoint that is down;
 * - `lose-send-answer`: forwards the next eth_sendRawTransaction, then answers 502 instead of its result
 *   (the network has the transaction; the keeper does not know it), and goes back to `none`;
 * - `lose-send-answer-then-down`: the same, then goes `down` instead, until told otherwise: the keeper
 *   cannot confirm that broadcast (its indexer's alarm included) until a test lets it;
 * - `hold-send-answers`: forwards each eth_sendRawTransaction and holds its answer (the network has the
 *   transaction; the keeper waits) until `POST /__release`, which also goes back to `none`;
 * - `hold-sends`: holds each eth_sendRawTransaction before forwarding it (the network never has it) until
 *   `POST /__release`, which answers each 502 without forwarding it and goes back to `none`;
 * - `refuse-first-of-two`: holds eth_sendRawTransactions until two wait, then refuses the one of the
 *   lower nonce (a JSON-RPC error, not forwarded), forwards the other, and goes back to `none`.
 * `GET /__sent` lists the raw transactions forwarded so far, in order; `GET /__held` how many answers wait.
 */
export type Fault =
  | "none"
  | "down"
  | "lose-send-answer"
  | "lose-send-answer-then-down"
  | "hold-send-answers"
  | "hold-sends"
  | "refuse-first-of-two";

/**
 * One anvil for the `settlement` project, with the contracts deployed at the local configuration's
 * addresses, resolvers (anvil accounts 1–4) funded and approved, and a fault-injecting RPC proxy. The
 * project runs its files one at a time, since they share the keeper's account and so its nonces.
 */
export default async function setup(project: TestProject) {
  const anvil = await startAnvil();
  let fault: Fault = "none";
  const sent: string[] = [];
  const held: (() => void)[] = [];
  const pair: { nonce: number; turn: (refused: boolean) => void }[] = [];
  const server = createServer(async (req, res) => {
    try {
      const body = await readBody(req);
      if (req.url === "/__fault") {
        if (req.method === "POST") fault = (JSON.parse(body) as { mode: Fault }).mode;
        return send(res, 200, JSON.stringify({ mode: fault }));
      }
      if (req.url === "/__sent") return send(res, 200, JSON.stringify(sent));
      if (req.url === "/__held") return send(res, 200, JSON.stringify(held.length));
      if (req.url === "/__release") {
        fault = "none";
        for (const release of held.splice(0)) release();
        return send(res, 200, "{}");
      }
      if (fault === "down") return send(res, 503, "unavailable");
      const calls = [JSON.parse(body)].flat() as { method: string; params: unknown[] }[];
      const sends = calls.filter((c) => c.method === "eth_sendRawTransaction");
      if (sends.length > 0 && fault === "hold-sends") {
        await new Promise<void>((r) => held.push(r));
        return send(res, 502, "bad gateway");
      }
      if (sends.length === 1 && fault === "refuse-first-of-two") {
        const nonce = parseTransaction(String(sends[0]?.params[0]) as Hex).nonce ?? 0;
        const refused = await new Promise<boolean>((turn) => {
          pair.push({ nonce, turn });
          if (pair.length < 2) return;
          fault = "none";
          const [lower, higher] = pair.splice(0).sort((x, y) => x.nonce - y.nonce);
          lower?.turn(true);
          higher?.turn(false);
        });
        if (refused) {
          const error = { code: -32000, message: "transaction underpriced" };
          return send(res, 200, JSON.stringify({ jsonrpc: "2.0", id: (calls[0] as { id?: number }).id, error }));
        }
      }
      const upstream = await fetch(anvil.rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      const answer = await upstream.text();
      for (const c of sends) sent.push(String(c.params[0]));
      if (sends.length > 0 && (fault === "lose-send-answer" || fault === "lose-send-answer-then-down")) {
        fault = fault === "lose-send-answer" ? "none" : "down";
        return send(res, 502, "bad gateway");
      }
      if (sends.length > 0 && fault === "hold-send-answers") await new Promise<void>((r) => held.push(r));
      send(res, upstream.status, answer);
    } catch (e) {
      send(res, 500, String(e));
    }
  });
  try {
    const deployment = await deployContracts(anvil.rpcUrl);
    await fund(anvil.rpcUrl, deployment, {
      resolvers: RESOLVER_ACCOUNTS.map((i) => anvilAccount(i)),
      amount: TOKEN_FUNDING,
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  } catch (e) {
    await anvil.stop();
    throw e;
  }
  const { port } = server.address() as AddressInfo;
  project.provide("chainRpcUrl", anvil.rpcUrl);
  project.provide("keeperRpcUrl", `http://127.0.0.1:${port}`);
  return async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await anvil.stop();
  };
}
