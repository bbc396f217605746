import { env } from "cloudflare:test";
import { type LocalAccount, maxUint256, type PrivateKeyAccount } from "viem";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { readResolver, upsertRegistration } from "../../src/db/resolvers";
import type { RfqFrame } from "../../src/protocol/relay-frames";
import type { Quote } from "../../src/schemas/quote";
import { type Bidder, bidder, marketSellAmount, quoteBody, signBid } from "../support/bidder";
import { authenticate, connect, heartbeat, type TestSocket, untilInventoryChecked } from "../support/ws-client";
import {
  app,
  approve,
  EVM,
  getQuote,
  indexUntil,
  newTaker,
  runIndexer,
  signQuote,
  submit,
  testClient,
} from "./helpers";

/**
 * A resolver sells only what it holds (docs/security.md, "Two quotes drain one balance"), on anvil with the
 * real contracts: the corridor holds each open quote's output on its winner for the quote's own taker, so
 * one taker's quotes worth 4 and 2 USDC cannot both be won by a resolver holding 5; two takers' quotes may
 * be, and when the relay's fill of the first leaves the second short, the keeper fills it through the next
 * bid (or refuses it) and strikes nobody: the relay's own fill explains the shortfall.
 */

let usdcSell = 0;
beforeAll(async () => {
  usdcSell = Number(await marketSellAmount((path) => app.request(path, {}, env)));
});

let open: TestSocket[] = [];
afterEach(async () => {
  for (const s of open) s.close();
  await Promise.all(open.map((s) => s.closed));
  open = [];
});

/** What the thin resolver holds on chain: 5 USDC, enough for the quote of 4 or the quote of 2, not both. */
const THIN_USDC = 5_000_000n;
const USDC = 1_000_000n;

interface Thin {
  account: PrivateKeyAccount;
  socket: TestSocket;
}

/** A registered resolver holding THIN_USDC, heartbeating what it holds, once the corridor has read it. */
async function thinNode(): Promise<Thin> {
  const account = (await newTaker({ tokens: THIN_USDC, approvePermit2: false })) as PrivateKeyAccount;
  await approve(account, EVM.usdc, EVM.executor, maxUint256);
  await upsertRegistration(env.DB, account.address, { name: "thin" }, new Date().toISOString());
  const socket = await connect();
  open.push(socket);
  await authenticate(socket, account, { name: "thin" });
  await socket.next("welcome");
  const held = THIN_USDC.toString();
  socket.send(
    heartbeat("quoting", { inventory: [{ chainId: EVM.chainId, token: EVM.usdc, balance: held, allowance: held }] }),
  );
  await untilInventoryChecked(account.address);
  return { account, socket };
}

async function deepNode(): Promise<Bidder> {
  const node = await bidder(1, "deep");
  open.push(node.socket);
  return node;
}

/** A quote request of `usdc` USDC's worth of cNGN for `taker`. */
const requestQuote = (taker: LocalAccount, usdc: bigint, slippageBps = 0) =>
  app.request(
    "/v1/quotes",
    {
      method: "POST",
      body: JSON.stringify(
        quoteBody({ sellAmount: String(usdcSell * Number(usdc / USDC)), taker: taker.address, slippageBps }),
      ),
      headers: { "content-type": "application/json" },
    },
    env,
  );

async function bidOn(node: Thin, rfq: RfqFrame, amount: bigint) {
  const signature = await signBid(node.account, rfq, amount);
  node.socket.send({ type: "bid", rfqId: rfq.rfqId, outputAmount: amount.toString(), signature });
}

/** The thin resolver bids the whole of `usdc`, the deep one 0.5 % less, on their next rfqs. */
async function bothBid(thin: Thin, deep: Bidder, usdc: bigint) {
  const [thinRfq, deepRfq] = await Promise.all([thin.socket.next("rfq"), deep.nextRfq()]);
  await bidOn(thin, thinRfq, usdc);
  await deep.bid(deepRfq, (usdc * 995n) / 1000n);
}

type Quoted = Quote & { typedData: Record<string, unknown> };

async function quoted(res: Response): Promise<Quoted> {
  expect(res.status).toBe(200);
  return (await res.json()) as Quoted;
}

const newTakerWithCngn = () => newTaker({ tokens: 100_000_000_000n });
const demotions = async (account: LocalAccount) => (await readResolver(env.DB, account.address))?.demotions ?? 0;

/** Each taker signs and submits its quote in turn; who won each, what the relay answered, and each end. */
async function outcome(fills: [LocalAccount, Quoted][], names: Record<string, string>) {
  const answers = [];
  for (const [taker, q] of fills) {
    answers.push((await submit({ quoteId: q.quoteId, signature: await signQuote(taker, q.typedData) })).body.status);
  }
  await runIndexer();
  const ends = [];
  for (const [, q] of fills) ends.push(await getQuote(q.quoteId));
  return {
    quoted: fills.map(([, q]) => names[q.resolver?.address ?? ""]),
    answers,
    filledBy: ends.map((q) => names[q.resolver?.address ?? ""]),
    statuses: ends.map((q) => q.status),
    fallback: ends.map((q) => q.timeline.find((t) => t.event === "fallback")?.detail?.reason ?? null),
  };
}

describe("a resolver sells only what it holds", () => {
  it("one taker's quotes of 4 and 2 USDC one after the other: the resolver holding 5 wins the first only, nobody is struck", async () => {
    const [thin, deep] = [await thinNode(), await deepNode()];
    const names = { [thin.account.address]: "thin", [deep.account.address]: "deep" };
    const taker = await newTakerWithCngn();

    const first = requestQuote(taker, 4n * USDC);
    await bothBid(thin, deep, 4n * USDC);
    const q1 = await quoted(await first);
    const second = requestQuote(taker, 2n * USDC);
    // One USDC is still free for this taker, so it is asked; its bid of two is over that.
    await bothBid(thin, deep, 2n * USDC);
    const q2 = await quoted(await second);
    const refused = await thin.socket.next("error", 500).then(
      (e) => e.code,
      () => null,
    );

    expect({
      ...(await outcome(
        [
          [taker, q1],
          [taker, q2],
        ],
        names,
      )),
      refused,
      demotions: await demotions(thin.account),
    }).toEqual({
      quoted: ["thin", "deep"],
      answers: ["submitted", "submitted"],
      filledBy: ["thin", "deep"],
      statuses: ["settled", "settled"],
      fallback: [null, null],
      refused: "insufficient_inventory",
      demotions: 0,
    });
  });

  it("one taker's two quotes open at once: the resolver wins one of them, the other goes to the next bid", async () => {
    const [thin, deep] = [await thinNode(), await deepNode()];
    const names = { [thin.account.address]: "thin", [deep.account.address]: "deep" };
    const taker = await newTakerWithCngn();

    const pending = [requestQuote(taker, 4n * USDC), requestQuote(taker, 2n * USDC)];
    // Each bid is within what it holds as it comes in: both are in before either auction is decided.
    const thinRfqs = [await thin.socket.next("rfq"), await thin.socket.next("rfq")];
    const deepRfqs = [await deep.nextRfq(), await deep.nextRfq()];
    const worth = (rfq: RfqFrame) => (BigInt(rfq.sellAmount) >= BigInt(usdcSell * 3) ? 4n * USDC : 2n * USDC);
    for (const rfq of thinRfqs) await bidOn(thin, rfq, worth(rfq));
    for (const rfq of deepRfqs) await deep.bid(rfq, (worth(rfq) * 995n) / 1000n);
    const quotes = await Promise.all(pending.map(async (p) => quoted(await p)));

    const seen = await outcome(
      quotes.map((q) => [taker, q]),
      names,
    );
    expect({ ...seen, quoted: [...seen.quoted].sort(), demotions: await demotions(thin.account) }).toEqual({
      quoted: ["deep", "thin"],
      answers: ["submitted", "submitted"],
      filledBy: seen.quoted,
      statuses: ["settled", "settled"],
      fallback: [null, null],
      demotions: 0,
    });
  });

  it("two takers' quotes of 4 and 2 USDC: the resolver wins both; the relay's fill of the first leaves it short of the second, which settles through the next bid, and nobody is struck", async () => {
    const [thin, deep] = [await thinNode(), await deepNode()];
    const names = { [thin.account.address]: "thin", [deep.account.address]: "deep" };
    const [one, two] = [await newTakerWithCngn(), await newTakerWithCngn()];

    const first = requestQuote(one, 4n * USDC, 100);
    await bothBid(thin, deep, 4n * USDC);
    const q1 = await quoted(await first);
    const second = requestQuote(two, 2n * USDC, 100);
    await bothBid(thin, deep, 2n * USDC);
    const q2 = await quoted(await second);

    expect({
      ...(await outcome(
        [
          [one, q1],
          [two, q2],
        ],
        names,
      )),
      demotions: await demotions(thin.account),
    }).toEqual({
      quoted: ["thin", "thin"],
      answers: ["submitted", "submitted"],
      filledBy: ["thin", "deep"],
      statuses: ["settled", "settled"],
      fallback: [null, "relay:inventory_spent"],
      demotions: 0,
    });
  });

  it("two takers' quotes, no other bid meeting the second's minimum: it is refused, and nobody is struck", async () => {
    const [thin, deep] = [await thinNode(), await deepNode()];
    const names = { [thin.account.address]: "thin", [deep.account.address]: "deep" };
    const [one, two] = [await newTakerWithCngn(), await newTakerWithCngn()];

    const first = requestQuote(one, 4n * USDC);
    await bothBid(thin, deep, 4n * USDC);
    const q1 = await quoted(await first);
    const second = requestQuote(two, 2n * USDC);
    await bothBid(thin, deep, 2n * USDC);
    const q2 = await quoted(await second);

    const seen = await outcome(
      [
        [one, q1],
        [two, q2],
      ],
      names,
    );
    const refused = await getQuote(q2.quoteId);
    expect({
      ...seen,
      reason: refused.executions.map((e) => [e.status, e.reason, e.blame]),
      demotions: await demotions(thin.account),
    }).toEqual({
      quoted: ["thin", "thin"],
      answers: ["submitted", "requote"],
      filledBy: ["thin", "thin"],
      statuses: ["settled", "failed"],
      fallback: [null, null],
      reason: [["requote", "relay:inventory_spent", "relay"]],
      demotions: 0,
    });
  });

  it("two takers' fills sent at once into one block: the one that meets the spent balance fails relay:inventory_spent, nobody struck", async () => {
    const [thin, deep] = [await thinNode(), await deepNode()];
    const [one, two] = [await newTakerWithCngn(), await newTakerWithCngn()];
    const first = requestQuote(one, 4n * USDC);
    await bothBid(thin, deep, 4n * USDC);
    const q1 = await quoted(await first);
    const second = requestQuote(two, 2n * USDC);
    await bothBid(thin, deep, 2n * USDC);
    const q2 = await quoted(await second);
    expect([q1, q2].map((q) => q.resolver?.address)).toEqual([thin.account.address, thin.account.address]);

    // Blocks wait: both fills pass their simulation on the same balance, or the second meets the first in flight.
    await testClient.setAutomine(false);
    try {
      await submit({ quoteId: q1.quoteId, signature: await signQuote(one, q1.typedData) });
      await submit({ quoteId: q2.quoteId, signature: await signQuote(two, q2.typedData) });
      await testClient.mine({ blocks: 1 });
    } finally {
      await testClient.setAutomine(true);
    }
    const ended = (q: Quote) => q.status === "settled" || q.status === "failed";
    const ends = [await indexUntil(q1.quoteId, ended), await indexUntil(q2.quoteId, ended)];
    const failed = ends.filter((q) => q.status === "failed");
    expect({
      statuses: ends.map((q) => q.status).sort(),
      reasons: failed.flatMap((q) => q.executions.map((e) => [e.reason, e.blame])),
      demotions: await demotions(thin.account),
    }).toEqual({ statuses: ["failed", "settled"], reasons: [["relay:inventory_spent", "relay"]], demotions: 0 });
  });
});
