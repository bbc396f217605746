import { env } from "cloudflare:test";
import { erc20Abi, type Hex, parseGwei } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { Quote } from "../../src/schemas/quote";
import type { ResolverStanding } from "../../src/schemas/resolvers";
import { type Bidder, quoteBody } from "../support/bidder";
import { app, balanceOf, chainClient, EVM, testClient, walletOf } from "./helpers";

/** What the settlement tests of quotes filled by several makers share (docs/legs.md). */

export type Answer = Quote & { typedData: Record<string, unknown> };
export type Rfq = Awaited<ReturnType<Bidder["nextRfq"]>>;

/** Asks for a quote while every node of `open` answers its rfq as `bid` says. */
export async function askNodes(
  open: readonly Bidder[],
  body: Record<string, unknown>,
  bid: (rfqs: Map<Bidder, Rfq>) => Promise<void>,
): Promise<Response> {
  const pending = app.request(
    "/v1/quotes",
    { method: "POST", body: JSON.stringify(quoteBody(body)), headers: { "content-type": "application/json" } },
    env,
  );
  const rfqs = new Map(await Promise.all(open.map(async (b) => [b, await b.nextRfq()] as const)));
  await bid(rfqs);
  return pending;
}

export const rfqOf = (rfqs: Map<Bidder, unknown>, b: Bidder) => rfqs.get(b) as Rfq;

/** A resolver's record as `GET /v1/resolvers/{address}` shows it. */
export const standingOf = async (address: string) =>
  (await (await app.request(`/v1/resolvers/${address}`, {}, env)).json()) as ResolverStanding;

/** A record's counts over its window's days. */
export const counted = (record: ResolverStanding) => ({
  submitted: record.days.reduce((n, d) => n + d.submitted, 0),
  settled: record.days.reduce((n, d) => n + d.settled, 0),
  failed: record.days.reduce((n, d) => n + d.failed, 0),
});

/** Lifts a resolver's demotion (`POST /v1/admin/resolvers/{address}/reinstate`), so it may win again. */
export async function reinstate(address: string): Promise<void> {
  await app.request(
    `/v1/admin/resolvers/${address}/reinstate`,
    { method: "POST", headers: { authorization: "Bearer test-admin-token" } },
    env,
  );
}

/**
 * Moves all of `node`'s USDC to a fresh account with a tip far above the keeper's, while blocks wait: the
 * block orders it before a fill sent already. The hash, and a function that brings the USDC back.
 */
export async function drainFirst(node: Bidder): Promise<{ hash: Hex; restore: () => Promise<void> }> {
  const holder = privateKeyToAccount(generatePrivateKey());
  await testClient.setBalance({ address: holder.address, value: 10n ** 18n });
  const tip = parseGwei("50");
  const amount = await balanceOf(EVM.usdc, node.account.address);
  const hash = await walletOf(node.account).writeContract({
    address: EVM.usdc,
    abi: erc20Abi,
    functionName: "transfer",
    args: [holder.address, amount],
    maxPriorityFeePerGas: tip,
    maxFeePerGas: tip * 2n,
    gas: 100_000n,
  });
  const restore = async () => {
    const back = await walletOf(holder).writeContract({
      address: EVM.usdc,
      abi: erc20Abi,
      functionName: "transfer",
      args: [node.account.address, amount],
    });
    await chainClient.waitForTransactionReceipt({ hash: back });
  };
  return { hash, restore };
}
