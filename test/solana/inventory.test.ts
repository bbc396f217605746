import { env } from "cloudflare:test";
import { Keypair } from "@solana/web3.js";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, describe, expect, it } from "vitest";
import { localSolanaKeypair } from "../../scripts/lib/solana-harness/accounts";
import { createApp } from "../../src/app";
import { splBalance } from "../../src/clients/resolver/solana-inventory";
import { loadConfig } from "../../src/config/load";
import type { SolanaChain } from "../../src/config/schema";
import type { Node } from "../../src/schemas/resolvers";
import { eventually, getJson, heartbeat, SOL, solCorridorKey, untilInventoryChecked } from "../support/ws-client";
import { marketSellAmount, type SolanaBidder, solanaBidder } from "./bidder";
import { openEmpty } from "./token-accounts";

/**
 * Solana inventory checked on chain (docs/resolver-protocol.md, "Inventory checked on chain"): the relay
 * reads the SPL balances of each node's proved Solana key and holds its heartbeat's claims against them.
 */

const app = createApp();
const chain = loadConfig(env.RELAY_CONFIG).chains.find((c): c is SolanaChain => c.kind === "solana") as SolanaChain;
const token = (address: string) => ({ address, tokenProgram: chain.tokens[0]?.tokenProgram ?? "" });

let open: SolanaBidder[] = [];
// Closed and acknowledged: the corridor has forgotten them before the next test asks who is online.
afterEach(async () => {
  for (const n of open) n.socket.close();
  await Promise.all(open.map((n) => n.socket.closed));
  open = [];
});

/** The funded local resolver `resolver:1`, claiming 5,000 of each token (it holds far more). */
async function honestNode(): Promise<SolanaBidder> {
  const node = await solanaBidder(0, "honest");
  open.push(node);
  return node;
}

/**
 * A fresh identity and a fresh Solana key whose accounts of both tokens exist and hold nothing (a key
 * without them is `account_missing`), claiming 5,000 of each token.
 */
async function bluffer(): Promise<SolanaBidder> {
  const keypair = Keypair.generate();
  await openEmpty(keypair.publicKey, [SOL.usdc, SOL.cngn]);
  const node = await solanaBidder(9, "bluffer", { account: privateKeyToAccount(generatePrivateKey()), keypair });
  open.push(node);
  return node;
}

const requestQuote = async () => {
  const res = await app.request(
    "/v1/quotes",
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        chainId: SOL.chainId,
        sellToken: SOL.cngn,
        buyToken: SOL.usdc,
        sellAmount: await marketSellAmount(app),
        taker: localSolanaKeypair("taker:5").publicKey.toBase58(),
      }),
    },
    env,
  );
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

const nodeOf = async (address: string) =>
  (await getJson<{ nodes: Node[] }>("/v1/nodes")).body.nodes.find((n) => n.address === address);

describe("Solana inventory checked on chain", () => {
  it("reads the SPL balances of the node's proved Solana key, its allowance being its balance", async () => {
    const node = await honestNode();
    const check = await untilInventoryChecked(node.account.address, env, solCorridorKey);
    const owner = node.keypair.publicKey.toBase58();
    const held = async (mint: string) => (await splBalance(env.TEST_SOLANA_RPC_URL, owner, token(mint))).toString();
    const [usdc, cngn] = [await held(SOL.usdc), await held(SOL.cngn)];
    expect(BigInt(usdc)).toBeGreaterThan(0n);
    expect(check.read?.entries).toEqual(
      expect.arrayContaining([
        { chainId: SOL.chainId, token: SOL.usdc, balance: usdc, allowance: usdc },
        { chainId: SOL.chainId, token: SOL.cngn, balance: cngn, allowance: cngn },
      ]),
    );
    expect(check.read?.entries).toHaveLength(2);
    // Its claims are true: it quotes.
    expect(await nodeOf(node.account.address)).toMatchObject({ state: "quoting", degraded: null });
  });

  it("never asks a node whose Solana key holds less than it claims, and shows it inventory_mismatch", async () => {
    const node = await bluffer();
    const check = await untilInventoryChecked(node.account.address, env, solCorridorKey);
    expect(check.read?.entries).toEqual(
      expect.arrayContaining([
        { chainId: SOL.chainId, token: SOL.usdc, balance: "0", allowance: "0" },
        { chainId: SOL.chainId, token: SOL.cngn, balance: "0", allowance: "0" },
      ]),
    );
    await eventually(async () =>
      expect(await nodeOf(node.account.address)).toMatchObject({
        state: "degraded",
        degraded: "inventory_mismatch",
        fresh: true,
        solanaAddress: node.keypair.publicKey.toBase58(),
      }),
    );

    const { status, body } = await requestQuote();
    expect(status).toBe(404);
    expect(body).toMatchObject({ error: "no_offers", nodesOnline: 1 });
    await expect(node.nextRfq(300)).rejects.toThrow("no rfq frame");

    // Claims that are true again clear it at the next heartbeat.
    const nothing = [SOL.usdc, SOL.cngn].map((t) => ({ chainId: SOL.chainId, token: t, balance: "0", allowance: "0" }));
    node.socket.send(heartbeat("quoting", { inventory: nothing }));
    await eventually(async () =>
      expect(await nodeOf(node.account.address)).toMatchObject({ state: "quoting", degraded: null }),
    );
  });

  it("asks the node whose claims the chain backs, which wins, and never the one that bluffs", async () => {
    const liar = await bluffer();
    const honest = await honestNode();
    const pending = requestQuote();
    honest.bid(await honest.nextRfq(), 1_000_000n);
    honest.sign(await honest.nextSign());
    const { status, body } = await pending;
    expect(status).toBe(200);
    expect(body.resolver).toMatchObject({
      address: honest.account.address,
      solanaAddress: honest.keypair.publicKey.toBase58(),
    });
    expect(body.replies).toMatchObject({ valid: 1, noReply: 0 });
    await expect(liar.nextRfq(100)).rejects.toThrow("no rfq frame");
  });
});
