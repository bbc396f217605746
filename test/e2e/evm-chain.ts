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
