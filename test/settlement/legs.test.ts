import { env } from "cloudflare:test";
import { type Address, erc20Abi, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { readResolver } from "../../src/db/resolvers";
import type { Quote } from "../../src/schemas/quote";
import { type Bidder, bidder, marketSellAmount, quoteBody } from "../support/bidder";
import { eventually } from "../support/ws-client";
import {
  app,
  balanceOf,
  chainClient,
  EVM,
  getQuote,
  newTaker,
  runIndexer,
  signQuote,
  submit,
  testClient,
  walletOf,
} from "./helpers";

/**
 * One swap filled by several makers at once (docs/legs.md), on a real chain: parts bid over the sockets,
 * composed into legs when they pay the taker more than any whole bid, settled in one transaction with the
 * taker's one signature, a fill per leg.
 */

/** 100 USDC's worth at the band's mid: large enough that 0.8 % over the market outweighs a leg's gas. */
let sellAmount = 0n;
const MARKET = 100_000_000n;
beforeAll(async () => {
  sellAmount = BigInt(await marketSellAmount((path) => app.request(path, {}, env))) * 100n;
});

let open: Bidder[] = [];
afterEach(() => {
  for (const b of open) b.socket.close();
  open = [];
});

/** Nodes online and fresh on the corridor: [index, name, the USDC its heartbeats claim]. */
async function online(...nodes: [number, string, bigint][]): Promise<Bidder[]> {
  const made = await Promise.all(nodes.map(([i, name, balance]) => bidder(i, name, balance.toString())));
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

/** Moves all of `node`'s USDC to a fresh account; the returned function brings it back. */
async function drain(node: Bidder): Promise<() => Promise<void>> {
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

type Answer = Quote & { typedData: Record<string, unknown> };

async function ask(taker: string, bid: (rfqs: Map<Bidder, Awaited<ReturnType<Bidder["nextRfq"]>>>) => Promise<void>) {
  const pending = app.request(
    "/v1/quotes",
    {
      method: "POST",
      body: JSON.stringify(quoteBody({ sellAmount: sellAmount.toString(), taker })),
      headers: { "content-type": "application/json" },
    },
    env,
  );
  const rfqs = new Map(await Promise.all(open.map(async (b) => [b, await b.nextRfq()] as const)));
  await bid(rfqs);
  return pending;
}

const rfqOf = (rfqs: Map<Bidder, unknown>, b: Bidder) => rfqs.get(b) as Awaited<ReturnType<Bidder["nextRfq"]>>;
const declineAll = (rfqs: Map<Bidder, unknown>, nodes: Bidder[]) => {
  for (const b of nodes) b.socket.send({ type: "decline", rfqId: rfqOf(rfqs, b).rfqId, reason: "test" });
};

describe("many makers in one fill", () => {
  it("quotes two parts 0.8 % over the market as two legs that pay more than the best whole bid, and settles both at once", async () => {
    // Each part bidder holds 60 % of the swap's output: neither can fill it alone.
    const held = (MARKET * 6n) / 10n;
    const [wholeA, wholeB, partA, partB] = (await online(
      [0, "whole-a", 5_000_000_000n],
      [1, "whole-b", 5_000_000_000n],
      [2, "part-a", held],
      [3, "part-b", held],
    )) as [Bidder, Bidder, Bidder, Bidder];
    const taker = await newTaker({ tokens: sellAmount * 4n });
    const half = sellAmount / 2n;
    const partOut = ((MARKET / 2n) * 1008n) / 1000n;

    // The same moment's whole bids alone: what the best whole bid leaves the taker.
    const wholeOnly = (await (
      await ask(taker.address, async (r) => {
        await Promise.all([wholeA.bid(rfqOf(r, wholeA), MARKET), wholeB.bid(rfqOf(r, wholeB), MARKET - 10_000n)]);
        declineAll(r, [partA, partB]);
      })
    ).json()) as Answer;
    expect(wholeOnly.legs).toEqual([
      { resolver: wholeA.account.address, sellAmount: sellAmount.toString(), outputAmount: MARKET.toString() },
    ]);

    const res = await ask(taker.address, async (r) => {
      await Promise.all([
        wholeA.bid(rfqOf(r, wholeA), MARKET),
        wholeB.bid(rfqOf(r, wholeB), MARKET - 10_000n),
        partA.part(rfqOf(r, partA), half, partOut),
        partB.part(rfqOf(r, partB), sellAmount - half, partOut),
      ]);
    });
    expect(res.status).toBe(200);
    const quote = (await res.json()) as Answer;
    expect(quote.legs.map((l) => [l.resolver, l.sellAmount, l.outputAmount])).toEqual([
      [partA.account.address, half.toString(), partOut.toString()],
      [partB.account.address, (sellAmount - half).toString(), partOut.toString()],
    ]);
    expect(BigInt(quote.received)).toBeGreaterThan(BigInt(wholeOnly.received));
    // Each leg's fee is its own; the gas fee is two legs'.
    expect(BigInt(quote.received)).toBe(2n * partOut - BigInt(quote.fee.amount) - BigInt(quote.gasFee.amount));
    expect(BigInt(quote.gasFee.amount)).toBeGreaterThan(BigInt(wholeOnly.gasFee.amount));
    const shown = Object.fromEntries(quote.offers.map((o) => [o.name, [o.status, o.sellAmount ?? null]]));
    expect(shown).toEqual({
      "part-a": ["won", half.toString()],
      "part-b": ["won", (sellAmount - half).toString()],
      "whole-a": ["lost", null],
      "whole-b": ["lost", null],
    });

    const before = await balanceOf(EVM.usdc, taker.address);
    const sub = await submit({ quoteId: quote.quoteId, signature: await signQuote(taker, quote.typedData) });
    expect(sub.status).toBe(202);
    const txHash = sub.body.txHash as Hex;
    await runIndexer();
    const settled = await getQuote(quote.quoteId);
    expect(settled.status).toBe("settled");
    // One transaction, a fill per leg.
    expect(settled.fills.map((f) => f.resolver)).toEqual([partA.account.address, partB.account.address]);
    expect(settled.settlement?.txHash).toBe(txHash);
    expect((await balanceOf(EVM.usdc, taker.address)) - before).toBe(BigInt(quote.received));
    expect(settled.legs).toEqual(quote.legs);
  });

  it("fills by legs a swap no one node can fill", async () => {
    const held = (MARKET * 6n) / 10n;
    const [partA, partB] = (await online([2, "part-a", held], [3, "part-b", held])) as [Bidder, Bidder];
    const taker = await newTaker({ tokens: sellAmount * 2n });
    const half = sellAmount / 2n;
    const res = await ask(taker.address, async (r) => {
      await Promise.all([
        partA.part(rfqOf(r, partA), half, MARKET / 2n),
        partB.part(rfqOf(r, partB), sellAmount - half, MARKET / 2n),
      ]);
    });
    expect(res.status).toBe(200);
    const quote = (await res.json()) as Answer;
    expect(quote.legs.map((l) => l.resolver)).toEqual([partA.account.address, partB.account.address]);
  });

  it("strikes only the leg whose resolver cannot pay when the fill is simulated, and requotes", async () => {
    const held = (MARKET * 6n) / 10n;
    const [partA, partB] = (await online([2, "part-a", held], [3, "part-b", held])) as [Bidder, Bidder];
    const taker = await newTaker({ tokens: sellAmount * 2n });
    const half = sellAmount / 2n;
    const res = await ask(taker.address, async (r) => {
      await Promise.all([
        partA.part(rfqOf(r, partA), half, MARKET / 2n),
        partB.part(rfqOf(r, partB), sellAmount - half, MARKET / 2n),
      ]);
    });
    const quote = (await res.json()) as Answer;
    expect(quote.resolver?.address).toBe(partA.account.address);
    const signature = await signQuote(taker, quote.typedData);
    // The second leg's resolver spends its USDC after winning.
    const restore = await drain(partB);
    try {
      const sub = await submit({ quoteId: quote.quoteId, signature });
      expect(sub.status).toBe(200);
      expect(sub.body).toMatchObject({ status: "requote", reason: "resolver:insufficient_balance" });
      expect(await partB.socket.next("execution")).toMatchObject({ quoteId: quote.quoteId, status: "failed" });
      expect((await readResolver(env.DB, partB.account.address))?.demotions).toBe(1);
      expect((await readResolver(env.DB, partA.account.address))?.demotions ?? 0).toBe(0);
    } finally {
      await restore();
    }
  });

  it("refuses a part below the least leg or above the whole with their codes, and passes over a part signed for another amount", async () => {
    // Node 3 was struck above: node 1 bids the other part here.
    const [whole, partA, partB] = (await online(
      [0, "whole-a", 5_000_000_000n],
      [2, "part-a", MARKET],
      [1, "part-b", MARKET],
    )) as [Bidder, Bidder, Bidder];
    const taker = await newTaker({ tokens: sellAmount * 2n });
    const least = 1_000_000_000n;
    const below = await ask(taker.address, async (r) => {
      await Promise.all([
        whole.bid(rfqOf(r, whole), MARKET),
        partA.part(rfqOf(r, partA), least - 1n, MARKET / 100n),
        partB.part(rfqOf(r, partB), sellAmount + 1n, MARKET),
      ]);
    });
    expect(below.status).toBe(200);
    expect(await partA.socket.next("error")).toMatchObject({ code: "part_below_minimum" });
    expect(await partB.socket.next("error")).toMatchObject({ code: "part_too_large" });
    expect(((await below.json()) as Answer).legs.map((l) => l.resolver)).toEqual([whole.account.address]);

    // Two parts that would pay more than the whole, one signed over another amount than it sells.
    const half = sellAmount / 2n;
    const partOut = ((MARKET / 2n) * 1008n) / 1000n;
    const forged = await ask(taker.address, async (r) => {
      await Promise.all([
        whole.bid(rfqOf(r, whole), MARKET),
        partA.part(rfqOf(r, partA), half, partOut, half + 1n),
        partB.part(rfqOf(r, partB), sellAmount - half, partOut),
      ]);
    });
    const quote = (await forged.json()) as Answer;
    expect(await partA.socket.next("error")).toMatchObject({ code: "bad_signature" });
    expect(quote.legs.map((l) => l.resolver)).toEqual([whole.account.address]);
    expect(quote.offers.map((o) => o.name)).not.toContain("part-a");
  });
});
