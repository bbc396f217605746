import { type ClientRequest, request } from "node:http";
import { type Address, createPublicClient, http, parseAbi } from "viem";
import { afterAll, beforeAll, inject } from "vitest";
import { expectedDeployment } from "../../scripts/lib/evm-deploy";
import { startLocalResolvers } from "../../scripts/lib/local-stack";
import type { ResolverClient } from "../../src/clients/resolver/client";

/**
 * What the e2e files on the EVM chain share: the relay and anvil of the global setup, the local
 * deployment, token balances, and the two reference resolvers of `npm start` (alpha at the band's mid,
 * beta 15 bps under), started before the file's tests and stopped after.
 */
export const base = inject("relayUrl");
export const rpcUrl = inject("rpcUrl");
export const deployment = expectedDeployment();
export const client = createPublicClient({ transport: http(rpcUrl), pollingInterval: 250 });

const erc20 = parseAbi(["function balanceOf(address) view returns (uint256)"]);
export const balance = (token: Address, holder: Address) =>
  client.readContract({ address: token, abi: erc20, functionName: "balanceOf", args: [holder] });

export function withAlphaAndBeta(): void {
  let fleet: ResolverClient[] = [];
  beforeAll(async () => {
    fleet = await startLocalResolvers(base, {
      rpcUrl,
      resolvers: [
        { index: 1, name: "alpha", spreadBps: 0 },
        { index: 2, name: "beta", spreadBps: 15 },
      ],
    });
    // Their ladders priced both ways, as on a stack that has run a moment (GET /v1/prices, docs/api.md).
    const { cngn, usdc } = deployment;
    for (const [sell, buy] of [
      [cngn, usdc],
      [usdc, cngn],
    ]) {
      const url = `${base}/v1/prices?chainId=31337&sellToken=${sell}&buyToken=${buy}`;
      for (let tries = 0; (await fetch(url)).status !== 200; tries++) {
        if (tries > 100) throw new Error(`no ladder of ${sell} for ${buy} within 10 s`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  });
  afterAll(() => Promise.all(fleet.map((c) => c.stop())));
}

/**
 * A bare HTTP upgrade, sent, to the local EVM corridor's resolver socket from `ip` (CF-Connecting-IP, which
 * the local relay takes as sent): the caller listens for its `upgrade`, `response` and `error`, as `http.get`.
 */
export function corridorUpgrade(ip: string): ClientRequest {
  const url = new URL(`${base}/v1/corridors/31337/${deployment.usdc}/${deployment.cngn}/connect`);
  const req = request({
    host: url.hostname,
    port: url.port,
    path: url.pathname,
    headers: {
      Connection: "Upgrade",
      Upgrade: "websocket",
      "Sec-WebSocket-Version": "13",
      "Sec-WebSocket-Key": Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64"),
      "CF-Connecting-IP": ip,
    },
  });
  req.end();
  return req;
}
