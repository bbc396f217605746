import { env } from "cloudflare:test";
import { type Address, erc20Abi } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { expect } from "vitest";
import { type Bidder, bidder } from "../support/bidder";
import { eventually } from "../support/ws-client";
import { app, balanceOf, chainClient, EVM, testClient, walletOf } from "./helpers";

/**
 * Nodes of the EVM corridor for settlement tests that pick who wins: each `[index, name, USDC its heartbeats
 * claim]` online and fresh, added to `open` for the test to close.
 */
export async function onlineNodes(open: Bidder[], ...nodes: [number, string, bigint?][]): Promise<Bidder[]> {
  const made = await Promise.all(nodes.map(([i, name, usdc]) => bidder(i, name, usdc?.toString())));
  open.push(...made);
  await eventually(async () => {
    const body = (await (await app.request("/v1/nodes", {}, env)).json()) as {
      nodes: { address: string; fresh: boolean }[];
    };
    const fresh = new Set(body.nodes.filter((n) => n.fresh).map((n) => n.address.toLowerCase()));
    expect(made.every((m) => fresh.has(m.account.address.toLowerCase()))).toBe(true);
  });
  return made;
}

/** Moves all of `node`'s USDC to a fresh account, as a winner that spends its inventory; the function returned brings it back. */
export async function drain(node: Bidder): Promise<() => Promise<void>> {
  const holder = privateKeyToAccount(generatePrivateKey());
  await testClient.setBalance({ address: holder.address, value: 10n ** 18n });
  const move = async (from: typeof holder | Bidder["account"], to: Address) => {
    const amount = await balanceOf(EVM.usdc, from.address);
    const hash = await walletOf(from).writeContract({
      address: EVM.usdc,
      abi: erc20Abi,
      functionName: "transfer",
      args: [to, amount],
    });
    await chainClient.waitForTransactionReceipt({ hash });
  };
  await move(node.account, holder.address);
  return () => move(holder, node.account.address);
}
