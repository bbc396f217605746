import { env, evictDurableObject } from "cloudflare:test";
import { erc20Abi, type PrivateKeyAccount } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { readResolver, upsertRegistration } from "../../src/db/resolvers";
import type { Quote } from "../../src/schemas/quote";
import type { Node } from "../../src/schemas/resolvers";
import { type Bidder, bidder, marketSellAmount, quoteBody, signBid } from "../support/bidder";
import {
  authenticate,
  connect,
  eventually,
  evmCorridorKey,
  getJson,
  heartbeat,
  type TestSocket,
  untilInventoryChecked,
} from "../support/ws-client";
import { app, chainClient, EVM, newResolver, newTaker, signQuote, submit, walletOf } from "./helpers";

let sellAmount = "";
beforeAll(async () => {
  sellAmount = await marketSellAmount((path) => app.request(path, {}, env));
});

let open: TestSocket[] = [];
// Closed and acknowledged: the corridor has forgotten them before the next test asks who is online.
afterEach(async () => {
  for (const s of open) s.close();
  await Promise.all(open.map((s) => s.closed));
  open = [];
});

/** Five thousand of both tokens, balance and allowance, on the test chain. */
const plenty = [EVM.usdc, EVM.cngn].map((token) => ({
  chainId: EVM.chainId,
  token,
  balance: "5000000000",
  allowance: "5000000000",
}));

/**
 * A fresh key that holds nothing on chain, authenticated and claiming `plenty` once its first read is in;
 * `registered` by the admin API first, or not.
 */
async function dishonestNode(registered = false) {
  const account = privateKeyToAccount(generatePrivateKey());
  if (registered) await upsertRegistration(env.DB, account.address, { name: "bluffer" }, new Date().toISOString());
  const socket = await connect();
  open.push(socket);
  await authenticate(socket, account, { name: "bluffer" });
  await socket.next("welcome");
  socket.send(heartbeat("quoting", { inventory: plenty }));
  const check = await untilInventoryChecked(account.address);
  return { account, socket, check };
}

async function honestNode(): Promise<Bidder> {
  const node = await bidder(0, "honest");
  open.push(node.socket);
  return node;
}

const requestQuote = () =>
  app.request(
    "/v1/quotes",
    {
      method: "POST",
      body: JSON.stringify(quoteBody({ sellAmount })),
      headers: { "content-type": "application/json" },
    },
    env,
  );

const nodeOf = async (address: string) =>
  (await getJson<{ nodes: Node[] }>("/v1/nodes")).body.nodes.find((n) => n.address === address);

describe("inventory checked against the chain", () => {
  // First in the file: eviction waits for the timers an auction leaves behind (closed auctions are
  // remembered for 30 s), so it runs before any auction here.
  it("keeps what it read across hibernation: no node waits for a new read to be asked again", async () => {
    const bluffer = await dishonestNode();
    const honest = await honestNode();
    await evictDurableObject(env.CORRIDOR.get(env.CORRIDOR.idFromName(evmCorridorKey)));
    expect(await nodeOf(bluffer.account.address)).toMatchObject({ degraded: "inventory_mismatch" });

    const pending = requestQuote();
    await honest.bid(await honest.nextRfq(), 1_000_000n);
    const res = await pending;
    expect(res.status).toBe(200);
    expect(((await res.json()) as Quote).resolver?.address).toBe(honest.account.address);
    await expect(bluffer.socket.next("rfq", 100)).rejects.toThrow("no rfq frame");
  });

  it("never asks a node that claims inventory it does not hold, and shows it inventory_mismatch", async () => {
    const { account, socket, check } = await dishonestNode();
    expect(check.read?.entries).toEqual(
      expect.arrayContaining([
        { chainId: EVM.chainId, token: EVM.usdc.toLowerCase(), balance: "0", allowance: "0" },
        { chainId: EVM.chainId, token: EVM.cngn.toLowerCase(), balance: "0", allowance: "0" },
      ]),
    );

    const res = await requestQuote();
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: "no_offers", nodesOnline: 1 });
    await expect(socket.next("rfq", 300)).rejects.toThrow("no rfq frame");

    expect(await nodeOf(account.address)).toMatchObject({
      state: "degraded",
      degraded: "inventory_mismatch",
      fresh: true,
      inventory: plenty,
    });

    // Claims that are true again clear it at the next heartbeat.
    socket.send(heartbeat("quoting", { inventory: plenty.map((e) => ({ ...e, balance: "0", allowance: "0" })) }));
    await eventually(async () =>
      expect(await nodeOf(account.address)).toMatchObject({ state: "quoting", degraded: null }),
    );
  });

  it("writes a directory entry for a node whose claims the chain covers, and none for one that bluffs or claims nothing", async () => {
    const bluffer = await dishonestNode();
    const honest = await honestNode();
    // Claims of nothing are true, and still no reason to list a key.
    const empty = await dishonestNode();
    empty.socket.send(heartbeat("quoting", { inventory: plenty.map((e) => ({ ...e, balance: "0", allowance: "0" })) }));
    await eventually(async () => expect(await nodeOf(empty.account.address)).toMatchObject({ degraded: null }));

    const entry = await eventually(async () => {
      const row = await readResolver(env.DB, honest.account.address);
      expect(row).toMatchObject({ name: "honest", state: "quoting", degraded: null, registered: false });
      return row;
    });
    expect(entry?.corridors).toEqual([{ chainId: EVM.chainId, baseToken: EVM.usdc, quoteToken: EVM.cngn }]);
    for (const key of [bluffer.account.address, empty.account.address]) {
      expect(await readResolver(env.DB, key)).toBeNull();
    }
    const { body } = await getJson<{ resolvers: { address: string }[] }>("/v1/resolvers?include=inactive");
    const listed = body.resolvers.map((r) => r.address);
    expect(listed).toContain(honest.account.address);
    expect(listed).not.toContain(bluffer.account.address);
    expect(listed).not.toContain(empty.account.address);
  });

  it("writes a registered bluffer's entry as inventory_mismatch at once, not at the next once-a-minute write", async () => {
    const { account, socket } = await dishonestNode(true);
    const { body } = await getJson<{ resolvers: { address: string; state: string; degraded: string | null }[] }>(
      "/v1/resolvers",
    );
    expect(body.resolvers.find((r) => r.address === account.address)).toMatchObject({
      state: "degraded",
      degraded: "inventory_mismatch",
    });
    await eventually(async () =>
      expect(await readResolver(env.DB, account.address)).toMatchObject({
        state: "degraded",
        degraded: "inventory_mismatch",
      }),
    );
    socket.send(heartbeat("quoting", { inventory: plenty.map((e) => ({ ...e, balance: "0", allowance: "0" })) }));
    await eventually(async () =>
      expect(await readResolver(env.DB, account.address)).toMatchObject({ state: "quoting", degraded: null }),
    );
  });

  it("asks the node whose claims the chain backs, which wins, and never the one that bluffs", async () => {
    const bluffer = await dishonestNode();
    const honest = await honestNode();
    expect(await nodeOf(honest.account.address)).toMatchObject({ state: "quoting", degraded: null });

    const pending = requestQuote();
    await honest.bid(await honest.nextRfq(), 1_000_000n);
    const res = await pending;
    expect(res.status).toBe(200);
    const quote = (await res.json()) as Quote;
    expect(quote.resolver?.address).toBe(honest.account.address);
    expect(quote.replies).toEqual({ valid: 1, rejected: 0, declined: 0, noReply: 0, late: 0 });
    await expect(bluffer.socket.next("rfq", 100)).rejects.toThrow("no rfq frame");
  });
});

type Quoted = Quote & { typedData: Record<string, unknown> };

const requestQuoteFor = async (taker: string) => {
  const res = await app.request(
    "/v1/quotes",
    {
      method: "POST",
      body: JSON.stringify(quoteBody({ sellAmount, taker })),
      headers: { "content-type": "application/json" },
    },
    env,
  );
  return { status: res.status, body: (await res.json()) as Quoted };
};

/**
 * A resolver whose claims are true when it wins, and whose funds are gone when the fill is simulated
 * (docs/reliability.md, "Strikes and demotion"): the taker gets one requote from it, then an honest
 * resolver wins.
 */
describe("a winner that cannot deliver", () => {
  it("costs the taker one requote: struck, demoted, told so, and an honest resolver wins the next quote", async () => {
    const rogue = (await newResolver()) as PrivateKeyAccount;
    const usdc = await chainClient.readContract({
      address: EVM.usdc,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [rogue.address],
    });
    const socket = await connect();
    open.push(socket);
    await authenticate(socket, rogue, { name: "rogue" });
    await socket.next("welcome");
    const holds = usdc.toString();
    socket.send(
      heartbeat("quoting", {
        inventory: [{ chainId: EVM.chainId, token: EVM.usdc, balance: holds, allowance: holds }],
      }),
    );
    await untilInventoryChecked(rogue.address);
    const honest = await bidder(0, "honest");
    open.push(honest.socket);
    const taker = await newTaker();

    // 1. The rogue's claims are true: it is asked, outbids the honest node and wins.
    const first = requestQuoteFor(taker.address);
    const [rogueRfq, honestRfq] = await Promise.all([socket.next("rfq"), honest.nextRfq()]);
    const bid = async (rfq: typeof rogueRfq, outputAmount: bigint) =>
      socket.send({
        type: "bid",
        rfqId: rfq.rfqId,
        outputAmount: outputAmount.toString(),
        signature: await signBid(rogue, rfq, outputAmount),
      });
    await bid(rogueRfq, 1_020_000n);
    await honest.bid(honestRfq, 1_000_000n);
    const won = await first;
    expect(won.status).toBe(200);
    expect(won.body.resolver?.name).toBe("rogue");

    // 2. Its USDC leaves before the taker signs: the simulation requotes, not the taker's fault.
    await walletOf(rogue).writeContract({
      address: EVM.usdc,
      abi: erc20Abi,
      functionName: "transfer",
      args: [taker.address, usdc],
    });
    const requote = await submit({ quoteId: won.body.quoteId, signature: await signQuote(taker, won.body.typedData) });
    expect(requote.body).toMatchObject({ status: "requote", reason: "resolver:insufficient_balance" });

    // 3. A strike: the rogue hears it, and the directory says why.
    expect(await socket.next("error")).toMatchObject({ code: "strike" });
    const demoted = await socket.next("demoted");
    expect(demoted.reason).toBe("strike 1: requote resolver:insufficient_balance; demoted for 15 min");
    expect(await readResolver(env.DB, rogue.address)).toMatchObject({
      demotedUntil: demoted.until,
      demotionReason: demoted.reason,
    });

    // 4. The taker asks again: the honest node wins whatever the rogue bids.
    const second = requestQuoteFor(taker.address);
    const honestAgain = await honest.nextRfq();
    const rogueAgain = await socket.next("rfq", 500).catch(() => null);
    if (rogueAgain) await bid(rogueAgain, 1_030_000n);
    await honest.bid(honestAgain, 1_000_000n);
    const next = await second;
    expect(next.status).toBe(200);
    expect(next.body.resolver?.name).toBe("honest");
    const rogueOffer = next.body.offers.find((o) => o.name === "rogue");
    expect(rogueOffer === undefined || rogueOffer.status === "demoted").toBe(true);
    const filled = await submit({ quoteId: next.body.quoteId, signature: await signQuote(taker, next.body.typedData) });
    expect(filled.status).toBe(202);
  });
});
