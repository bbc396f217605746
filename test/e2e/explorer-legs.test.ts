import type { Browser, Page } from "playwright-core";
import { type Address, createWalletClient, http, parseAbi } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DESKTOP, launchChromium, type PageTrouble, watchedPage } from "../../scripts/lib/chromium";
import { fund } from "../../scripts/lib/evm-deploy";
import { LOCAL_ACCOUNTS, startLocalResolvers } from "../../scripts/lib/local-stack";
import type { ResolverClient } from "../../src/clients/resolver/client";
import { anvilAccount } from "../../src/clients/resolver/keys";
import { requestQuote, submitExecution } from "../../src/clients/taker/relay";
import { signForSubmission } from "../../src/clients/taker/swap";
import { balance, base, client, deployment, rpcUrl } from "./evm-chain";

/**
 * A quote two makers fill together, on its page in the explorer (docs/explorer.md, docs/legs.md): the
 * stack's spare resolvers, gamma and delta, priced at the band's mid, hold 6 and 4 USDC, so asked for
 * 15,800 cNGN (10 USDC) neither covers the whole and each bids the part its USDC covers (60 % and 40 %),
 * which together are the quote's two legs. The page draws each leg apart and, once the fill lands, each
 * leg's own fill event; a quote one bid fills shows as before.
 */

/**
 * The stack's spare resolvers, whose USDC this file lowers and gives back, so the stack's own (alpha, beta)
 * stay as every other file finds them. Each quote a taker of its own, new here: what a taker's open quotes
 * hold is not offered to it again, and the demo and the limit order's test show a first swap's permit from
 * the stack's takers with no allowance.
 */
const gamma = anvilAccount(LOCAL_ACCOUNTS.resolvers[2]);
const delta = anvilAccount(LOCAL_ACCOUNTS.resolvers[3]);
const holder = anvilAccount(LOCAL_ACCOUNTS.deployer);
const legsTaker = privateKeyToAccount(generatePrivateKey());
const wholeTaker = privateKeyToAccount(generatePrivateKey());
const HELD = new Map([
  [gamma, 6_000_000n],
  [delta, 4_000_000n],
]);
const erc20 = parseAbi(["function transfer(address to, uint256 amount) returns (bool)"]);

async function moveToken(token: Address, from: typeof gamma, to: Address, amount: bigint) {
  const wallet = createWalletClient({ account: from, chain: foundry, transport: http(rpcUrl) });
  const hash = await wallet.writeContract({ address: token, abi: erc20, functionName: "transfer", args: [to, amount] });
  await client.waitForTransactionReceipt({ hash });
}

let fleet: ResolverClient[] = [];
let browser: Browser;
const moved = new Map<typeof gamma, bigint>();
beforeAll(async () => {
  // Their USDC down to what each is to hold, before they read their inventory.
  for (const [resolver, keep] of HELD) {
    const excess = (await balance(deployment.usdc, resolver.address)) - keep;
    await moveToken(deployment.usdc, resolver, holder.address, excess);
    moved.set(resolver, excess);
  }
  await fund(rpcUrl, deployment, { takers: [legsTaker.address, wholeTaker.address], amount: 20_000_000_000n });
  fleet = await startLocalResolvers(base, {
    rpcUrl,
    resolvers: [
      { index: LOCAL_ACCOUNTS.resolvers[2], name: "gamma", spreadBps: 0 },
      { index: LOCAL_ACCOUNTS.resolvers[3], name: "delta", spreadBps: 0 },
    ],
  });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await Promise.all(fleet.map((c) => c.stop()));
  for (const [resolver, excess] of moved) await moveToken(deployment.usdc, holder, resolver.address, excess);
});

async function inPage(body: (page: Page, trouble: PageTrouble) => Promise<void>) {
  const { page, trouble, close } = await watchedPage(browser, DESKTOP);
  try {
    await body(page, trouble);
  } finally {
    await close();
  }
}

const noTrouble = { consoleErrors: [], pageErrors: [], failedRequests: [] };

const quoteCngn = (sellAmount: string, taker: { address: Address }) =>
  requestQuote(base, { sellToken: deployment.cngn, buyToken: deployment.usdc, sellAmount, taker: taker.address });

interface QuoteRecord {
  legs: { resolver: string; sellAmount: string }[];
  fills: { resolver: string; logIndex: number }[];
}
const readRecord = async (quoteId: string) =>
  (await (await fetch(`${base}/v1/quotes/${quoteId}`)).json()) as QuoteRecord;

const headers = (page: Page, table: string) => page.locator(`${table} thead th`).allTextContents();
const rowOf = (page: Page, table: string, name: string) =>
  page.locator(`${table} tbody tr`, { hasText: name }).locator("td").allTextContents();

describe("a quote's page", () => {
  it("shows a quote one bid fills as before: its offers, no legs", async () => {
    const quote = await quoteCngn("6320000000", wholeTaker);
    expect((await readRecord(quote.quoteId)).legs).toHaveLength(1);
    await inPage(async (page, trouble) => {
      await page.goto(`${base}/#/quotes/${quote.quoteId}`);
      await page.locator("#offer-table").waitFor();
      expect(await headers(page, "#offer-table")).toEqual(["Rank", "Resolver", "Output", "Latency", "Outcome"]);
      const outcomes = await page.locator("#offer-table tbody tr td:last-child").allTextContents();
      expect(outcomes.sort()).toEqual(["lost", "won"]);
      expect(await page.locator("#legs").count()).toBe(0);
      expect(trouble).toEqual(noTrouble);
    });
  });

  it("draws the legs of a quote two makers fill, and each leg's own fill once it lands", async () => {
    const quote = await quoteCngn("15800000000", legsTaker);
    const { legs } = await readRecord(quote.quoteId);
    expect(legs.map((l) => [l.resolver, l.sellAmount]).sort()).toEqual(
      [
        [gamma.address, "9480000000"],
        [delta.address, "6320000000"],
      ].sort(),
    );
    await inPage(async (page, trouble) => {
      await page.goto(`${base}/#/quotes/${quote.quoteId}`);
      await page.locator("#leg-table").waitFor();
      expect(await page.locator("#legs-title").textContent()).toBe("Legs (2)");
      expect(await headers(page, "#leg-table")).toEqual(["Leg", "Resolver", "Sells", "Delivers", "Share", "Fill"]);
      expect((await rowOf(page, "#leg-table", "gamma")).slice(1)).toEqual([
        "gamma 0x90F7…b906",
        "9,480 cNGN",
        "6 USDC",
        "60 %",
        "not yet",
      ]);
      expect((await rowOf(page, "#leg-table", "delta")).slice(1)).toEqual([
        "delta 0x15d3…6A65",
        "6,320 cNGN",
        "4 USDC",
        "40 %",
        "not yet",
      ]);
      const links = await page.locator("#leg-table tbody a").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
      expect(links.sort()).toEqual([`#/resolvers/${gamma.address}`, `#/resolvers/${delta.address}`].sort());
      expect(await page.locator("#legs .leg-bar rect").count()).toBe(2);
      // The transcript shows each offer's part.
      expect(await headers(page, "#offer-table")).toEqual([
        "Rank",
        "Resolver",
        "Sells",
        "Output",
        "Latency",
        "Outcome",
      ]);
      expect((await rowOf(page, "#offer-table", "gamma"))[2]).toBe("9,480 cNGN");

      const signed = await signForSubmission(client, legsTaker, quote);
      const { answer } = await submitExecution(base, signed.request, { idempotencyKey: crypto.randomUUID() });
      expect(answer.status).toBe("submitted");
      await expect
        .poll(() => page.locator("#quote-stage").textContent(), { timeout: 30_000, interval: 200 })
        .toBe("final");
      const { fills } = await readRecord(quote.quoteId);
      expect(fills).toHaveLength(2);
      for (const [resolver, name] of [
        [gamma, "gamma"],
        [delta, "delta"],
      ] as const) {
        const fill = fills.find((f) => f.resolver.toLowerCase() === resolver.address.toLowerCase());
        await expect
          .poll(async () => (await rowOf(page, "#leg-table", name))[5])
          .toMatch(new RegExp(`^filled log ${fill?.logIndex} 0x`));
      }
      expect(trouble).toEqual(noTrouble);
    });
  });
});
