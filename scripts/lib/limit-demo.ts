/**
 * `npm run demo -- --limit`: a taker places a limit order a little under the market on the local anvil
 * chain and watches the keeper's 5 s auctions fill it (docs/limit-orders.md, docs/local-stack.md "The
 * limit-order demo"): the market from the oracle band's mid, prepare, check and sign the draft (with an
 * EIP-2612 permit for Permit2 when it has no allowance yet), place, follow the order to `filled`, then
 * print its record and the quote that filled it, followed to `final`, the balances that moved and the
 * keeper's books for the fill.
 */
import { type Address, formatUnits, type LocalAccount, type PublicClient, parseAbi, parseUnits } from "viem";
import { rationalFromFloat } from "../../src/clients/resolver/pricing";
import type { LimitOrder, Rates } from "../../src/clients/taker/api";
import { followToFinal } from "../../src/clients/taker/follow";
import { followLimitOrder, limitOrder } from "../../src/clients/taker/limit";
import { getExecution, relayCall } from "../../src/clients/taker/relay";
import type { Quote } from "../../src/schemas/quote";
import { keeperBooksLines } from "./demo-books";
import { describeEvent, say } from "./demo-output";

interface Token {
  symbol: string;
  address: Address;
  decimals: number;
}

export interface LimitDemoOptions {
  relayUrl: string;
  client: PublicClient;
  chainId: number;
  account: LocalAccount;
  sell: Token;
  buy: Token;
  /** Of the sell token, in whole units. */
  sellAmount: string;
  /** How far under the market the limit is, in bps. */
  underBps: number;
}

/** How long the demo's order rests before it expires: the relay's shortest allowed expiry is 5 minutes. */
const EXPIRES_IN_SECONDS = 600;
/** The keeper auctions an order every 5 s; a fill settles a block or two later. */
const FILL_TIMEOUT_MS = 60_000;

const erc20 = parseAbi(["function balanceOf(address) view returns (uint256)"]);

export async function limitDemo(o: LimitDemoOptions): Promise<void> {
  const { relayUrl, client, account, sell, buy } = o;
  const amount = (t: Token, value: bigint | string) => `${formatUnits(BigInt(value), t.decimals)} ${t.symbol}`;
  const balance = (t: Token) =>
    client.readContract({ address: t.address, abi: erc20, functionName: "balanceOf", args: [account.address] });

  // 1. The market: what the sell amount is worth at the band's mid; the limit is a little under it.
  const sellAmount = parseUnits(o.sellAmount, sell.decimals);
  const mid = await bandMid(relayUrl, o.chainId, sell.address, buy.address);
  const market = marketOutput(sellAmount, mid, sell.decimals, buy.decimals);
  const limitAmount = (market * BigInt(10_000 - o.underBps)) / 10_000n;
  say(
    `market: ${mid} NGN per USD (the oracle band's mid), so ${amount(sell, sellAmount)} is worth ` +
      `${amount(buy, market)}; the limit is ${o.underBps} bps under it: ${amount(buy, limitAmount)}`,
  );
  const before = await Promise.all([balance(sell), balance(buy)]);

  // 2. Prepare, check the draft says what was asked, sign it (and a permit when needed), place it.
  const { draft, permit, order } = await limitOrder({
    relayUrl,
    client,
    account,
    chainId: o.chainId,
    sellToken: sell.address,
    buyToken: buy.address,
    sellAmount: sellAmount.toString(),
    limitAmount: limitAmount.toString(),
    expiresInSeconds: EXPIRES_IN_SECONDS,
    onPrepared: (d) =>
      say(
        `prepared: minOut ${amount(buy, d.draft.minOut)} (the limit less the ${d.fee.bps} bps fee and at most ` +
          `${amount(buy, d.draft.maxGasFee)} of gas fee; ${amount(buy, d.gasFeeNow)} now), expires ${d.expiresAt}`,
      ),
  });
  say(
    `signed the order${permit ? `, and an EIP-2612 permit: Permit2 had no ${sell.symbol} allowance from this taker` : ""}`,
  );
  say(`placed ${order.limitOrderId}: ${order.status}`);

  // 3. The keeper auctions it every 5 s while it is within 150 bps of the band's mid.
  const last = await followLimitOrder(relayUrl, order.limitOrderId, {
    timeoutMs: FILL_TIMEOUT_MS,
    onChange: (r) => say(`  ${describeOrder(r, (v) => amount(buy, v))}`),
  });
  if (last.status !== "filled" || !last.quoteId) {
    throw new Error(`order ${order.limitOrderId} is ${last.status}, not filled, after ${FILL_TIMEOUT_MS / 1000} s`);
  }
  say(`the order's record:\n${JSON.stringify(last, null, 2)}`);

  // 4. The quote that filled it, followed to final.
  const { quote } = await followToFinal(relayUrl, last.quoteId, {
    timeoutMs: FILL_TIMEOUT_MS,
    onEvent: (e) => say(`  ${describeEvent(e)}`),
  });
  say(`the quote that filled it, ${quote.quoteId}: ${describeQuote(quote, (v) => amount(buy, v))}`);
  for (const offer of quote.offers) {
    say(`  offer ${offer.name.padEnd(8)} ${amount(buy, offer.outputAmount).padEnd(16)} ${offer.status}`);
  }

  const after = await Promise.all([balance(sell), balance(buy)]);
  const received = (after[1] ?? 0n) - (before[1] ?? 0n);
  say(
    `balances: ${amount(sell, (after[0] ?? 0n) - (before[0] ?? 0n))}, +${amount(buy, received)} ` +
      `(minOut ${amount(buy, draft.draft.minOut)})`,
  );
  if (received < BigInt(draft.draft.minOut)) {
    throw new Error(`received ${received}, under the order's minOut ${draft.draft.minOut}`);
  }

  // 5. What the fill cost the keeper beside what the quote charged for it.
  const settled = quote.executions.find((e) => e.status === "settled");
  const execution = settled ? await getExecution(relayUrl, settled.executionId) : null;
  const feeToken = [sell, buy].find((t) => t.address.toLowerCase() === execution?.keeper?.charged.token.toLowerCase());
  for (const line of keeperBooksLines(execution?.keeper ?? null, "evm", feeToken ?? null)) say(line);
}

/** The mid of the band of the corridor of `tokenA` and `tokenB` on `chainId`, naira per dollar. */
async function bandMid(relayUrl: string, chainId: number, tokenA: string, tokenB: string): Promise<number> {
  const { body } = await relayCall<Rates>(relayUrl, "/v1/rates", {});
  const [a, b] = [tokenA.toLowerCase(), tokenB.toLowerCase()];
  const band = body.bands.find((x) => {
    // A native price's band (corridor null) is no corridor's market.
    const [chain, ...tokens] = (x.corridor ?? "").toLowerCase().split(":");
    return chain === String(chainId) && tokens.includes(a) && tokens.includes(b);
  });
  if (!band) {
    throw new Error(
      "the relay has no rate band for the corridor, so limit orders have no market: npm start serves a local rate source (--rate)",
    );
  }
  return band.mid;
}

/** Dollars for `sellAmount` naira-token base units at `mid` naira per dollar, in the buy token's base units. */
export function marketOutput(sellAmount: bigint, mid: number, sellDecimals: number, buyDecimals: number): bigint {
  const rate = rationalFromFloat(mid);
  return (sellAmount * 10n ** BigInt(buyDecimals) * rate.den) / (10n ** BigInt(sellDecimals) * rate.num);
}

function describeOrder(r: LimitOrder, amount: (v: string) => string): string {
  const parts = [`${r.status.padEnd(9)} attempts ${r.attempts}`];
  if (r.bestReceived) parts.push(`best ${amount(r.bestReceived)}`);
  if (r.lastError) parts.push(`last error ${r.lastError}`);
  if (r.quoteId) parts.push(`quote ${r.quoteId}`);
  return parts.join(", ");
}

function describeQuote(q: Quote, amount: (v: string) => string): string {
  return (
    `${q.status}${q.final ? ", final" : ""}; ${q.resolver?.name} delivered ${amount(q.received)} to the recipient ` +
    `(fee ${amount(q.fee.amount)}, gas fee ${amount(q.gasFee.amount)}), block ${q.settlement?.block}`
  );
}
