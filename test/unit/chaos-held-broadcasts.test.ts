import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type HeldBroadcasts, holdBroadcasts } from "../../scripts/lib/chaos/held-broadcasts";

/**
 * The keeper's RPC proxy a chaos crash is aimed through (docs/operations.md, "Deploys and crashes"): a
 * broadcast reaches the chain at once, and when armed its answer is held until released.
 */

let chain: Server;
let proxy: HeldBroadcasts;
const reached: string[] = [];

async function startChain(): Promise<string> {
  chain = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const { method, id } = JSON.parse(body) as { method: string; id: number };
      reached.push(method);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id, result: `${method}-answer` }));
    });
  });
  await new Promise<void>((r) => chain.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(chain.address() as AddressInfo).port}`;
}

const call = async (method: string) => {
  const res = await fetch(proxy.url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: [] }),
  });
  return ((await res.json()) as { result: string }).result;
};

afterEach(async () => {
  await proxy.stop();
  await new Promise<void>((r) => chain.close(() => r()));
  reached.length = 0;
});

describe("a keeper's RPC that holds a broadcast's answer", () => {
  it("passes everything through, and when armed holds the next broadcast's answer after it reached the chain", async () => {
    proxy = await holdBroadcasts(await startChain());
    expect(await call("eth_sendRawTransaction")).toBe("eth_sendRawTransaction-answer");
    const armed = proxy.arm();
    expect(await call("eth_chainId")).toBe("eth_chainId-answer");
    let answered = false;
    const broadcast = call("sendTransaction").then((a) => {
      answered = true;
      return a;
    });
    const release = await armed;
    expect(reached).toEqual(["eth_sendRawTransaction", "eth_chainId", "sendTransaction"]);
    await new Promise((r) => setTimeout(r, 50));
    expect(answered).toBe(false);
    release();
    expect(await broadcast).toBe("sendTransaction-answer");
    // Disarmed after one catch: the next broadcast is answered at once.
    expect(await call("eth_sendRawTransaction")).toBe("eth_sendRawTransaction-answer");
  });
});
