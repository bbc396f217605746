import { env } from "cloudflare:test";
import { erc20Abi, type PrivateKeyAccount } from "viem";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { readResolver } from "../../src/db/resolvers";
import type { QuoteRecord } from "../../src/schemas/quote";
import { bidder, marketSellAmount, quoteBody, signBid } from "../support/bidder";
import { authenticate, connect, heartbeat, type TestSocket, untilInventoryChecked } from "../support/ws-client";
import { app, chainClient, EVM, newResolver, newTaker, signQuote, submit, walletOf } from "./helpers";

/**
 * A resolver whose claims are true when it wins, and whose funds are gone when the fill is simulated
 * (docs/reliability.md, "Strikes and demotion"): the taker gets one requote from it, then an honest
 * resolver wins.
 */

let sellAmount = "";
beforeAll(async () => {
  sellAmount = await marketSellAmount((path) => app.request(path, {}, env));
});

let open: TestSocket[] = [];
afterEach(async () => {
  for (const s of open) s.close();
  await Promise.all(open.map((s) => s.closed));
  open = [];
});

type Quoted = QuoteRecord & { typedData: Record<string, unknown> };

const requestQuote = async (taker: string) => {
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
    const first = requestQuote(taker.address);
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
    expect(requote.body).toMatchObject({ status: "requote", reason: "resolver_insufficient_balance" });

    // 3. A strike: the rogue hears it, and the directory says why.
    expect(await socket.next("error")).toMatchObject({ code: "strike" });
    const demoted = await socket.next("demoted");
    expect(demoted.reason).toBe("strike 1: requote resolver_insufficient_balance; demoted for 15 min");
    expect(await readResolver(env.DB, rogue.address)).toMatchObject({
      demotedUntil: demoted.until,
      demotionReason: demoted.reason,
    });

    // 4. The taker asks again: the honest node wins whatever the rogue bids.
    const second = requestQuote(taker.address);
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
