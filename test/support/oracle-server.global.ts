import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";
import { type AdapterName, adapters } from "../../src/oracle/sources";
import { dated, recordedErrors, republish, staleAt } from "./oracle-fixtures";

declare module "vitest" {
  export interface ProvidedContext {
    oracleFixturesUrl: string;
  }
}

/**
 * A stand-in for the public rate sources, on a free loopback port, for the integration tests (which
 * run in workerd and reach it by fetch). The path picks the behaviour and the adapter's format:
 *
 *   /ok/<adapter>          the recorded response, republished now
 *   /outlier/<adapter>     the same with its prices times 1.5
 *   /stale/<adapter>       republished long ago (adapters whose format carries a time)
 *   /aged/<s>/<adapter>    republished <s> seconds ago (adapters whose format carries a time)
 *   /status/<code>/<adapter>  that HTTP status
 *   /slow/<adapter>        never answers; the connection stays open until the client gives up
 *   /garbled/<adapter>     200 with a body that is not JSON
 *   /refused/<adapter>     200 with the source's own error body (quidax, luno, open-er-api, coinbase, kraken)
 *
 * A native price's adapter answers its ETH/USD recording, or its SOL/USD one with `?base=SOL`.
 */
export default async function setup(project: TestProject) {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://fixtures");
    const parts = url.pathname.split("/").filter(Boolean);
    const [behaviour, ...rest] = parts;
    const sol = url.searchParams.get("base") === "SOL";
    const adapter = rest.at(-1) ?? "";
    if (!isAdapter(adapter)) return send(res, 404, { error: `unknown adapter ${adapter}` });
    const now = Date.now();
    switch (behaviour) {
      case "ok":
        return send(res, 200, republish(adapter, now, 1, sol));
      case "outlier":
        return send(res, 200, republish(adapter, now, 1.5, sol));
      case "stale":
        if (!dated.includes(adapter)) return send(res, 404, { error: `${adapter} responses carry no time` });
        return send(res, 200, republish(adapter, staleAt(adapter, now), 1, sol));
      case "aged":
        if (!dated.includes(adapter)) return send(res, 404, { error: `${adapter} responses carry no time` });
        return send(res, 200, republish(adapter, now - Number(rest[0]) * 1000, 1, sol));
      case "status":
        return send(res, Number(rest[0]), { error: "upstream trouble" });
      case "slow":
        return; // the request is left hanging
      case "garbled":
        res.writeHead(200, { "content-type": "text/html" });
        return res.end("<html><body>Checking your browser before accessing</body></html>");
      case "refused": {
        const body = (recordedErrors as Partial<Record<AdapterName, unknown>>)[adapter];
        if (!body) return send(res, 404, { error: `no recorded error body for ${adapter}` });
        return send(res, 200, body);
      }
      default:
        return send(res, 404, { error: `unknown behaviour ${behaviour}` });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  project.provide("oracleFixturesUrl", `http://127.0.0.1:${port}`);
  return async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
}

const isAdapter = (name: string): name is AdapterName => Object.hasOwn(adapters, name);

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}
