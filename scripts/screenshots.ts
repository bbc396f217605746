/**
 * `npm run screenshots`: the pictures of docs/explorer.md. Against the local stack (`npm start`), a taker
 * swaps 1,580 cNGN for USDC to `final`, then the installed Chromium photographs the explorer's overview,
 * that quote's page, its winner's page and its taker's page at a desktop's and a phone's width, and the
 * API reference, into docs/.
 *
 *   npm run screenshots -- [--relay URL] [--rpc URL] [--taker N] [--out DIR]
 */
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { createPublicClient, http } from "viem";
import { anvilAccount } from "../src/clients/resolver/keys";
import { followToFinal } from "../src/clients/taker/follow";
import { swap } from "../src/clients/taker/swap";
import { DESKTOP, launchChromium, PHONE, watchedPage } from "./lib/chromium";

const { values } = parseArgs({
  options: {
    relay: { type: "string", default: process.env.RELAY_URL ?? "http://127.0.0.1:8787" },
    rpc: { type: "string", default: process.env.RPC_URL ?? "http://127.0.0.1:8545" },
    // Not the demo's taker (5), so the two can run side by side.
    taker: { type: "string", default: "8" },
    out: { type: "string", default: resolve(import.meta.dirname, "../docs") },
  },
});

/** What a ladder says until its first read answers (public/js/ladders.js). */
const LADDER_LOADING = "Reading the ladder";

interface Shot {
  file: string;
  path: string;
  viewport: typeof DESKTOP;
  /** What must be on the page before it is taken. */
  ready: string;
  /** Text that must have left the page first (a part still loading). */
  gone?: string;
  fullPage: boolean;
}

async function main(): Promise<void> {
  const relayUrl = values.relay.replace(/\/+$/, "");
  const { quoteId, resolver, taker } = await swapToFinal(relayUrl);
  const shots: Shot[] = [
    {
      file: "explorer-overview.png",
      path: "/",
      viewport: DESKTOP,
      ready: "#band-table",
      gone: LADDER_LOADING,
      fullPage: true,
    },
    {
      file: "explorer-overview-phone.png",
      path: "/",
      viewport: PHONE,
      ready: "#band-table",
      gone: LADDER_LOADING,
      fullPage: true,
    },
    {
      file: "explorer-quote.png",
      path: `/#/quotes/${quoteId}`,
      viewport: DESKTOP,
      ready: "#settlement",
      fullPage: true,
    },
    {
      file: "explorer-quote-phone.png",
      path: `/#/quotes/${quoteId}`,
      viewport: PHONE,
      ready: "#settlement",
      fullPage: true,
    },
    {
      file: "explorer-resolver.png",
      path: `/#/resolvers/${resolver}`,
      viewport: DESKTOP,
      ready: "#win-table",
      fullPage: true,
    },
    {
      file: "explorer-resolver-phone.png",
      path: `/#/resolvers/${resolver}`,
      viewport: PHONE,
      ready: "#win-table",
      fullPage: true,
    },
    {
      file: "explorer-taker.png",
      path: `/#/takers/${taker}`,
      viewport: DESKTOP,
      ready: "#taker-quote-table",
      fullPage: true,
    },
    {
      file: "explorer-taker-phone.png",
      path: `/#/takers/${taker}`,
      viewport: PHONE,
      ready: "#taker-quote-table",
      fullPage: true,
    },
    { file: "api-reference.png", path: "/reference", viewport: DESKTOP, ready: ".opblock", fullPage: false },
  ];
  const browser = await launchChromium();
  try {
    for (const shot of shots) {
      const { page, trouble, close } = await watchedPage(browser, shot.viewport);
      try {
        await page.goto(`${relayUrl}${shot.path}`);
        await page.locator(shot.ready).first().waitFor({ timeout: 15_000 });
        if (shot.gone) await page.getByText(shot.gone).first().waitFor({ state: "detached", timeout: 15_000 });
        const problems = [...trouble.consoleErrors, ...trouble.pageErrors, ...trouble.failedRequests];
        if (problems.length) throw new Error(`${shot.path}: ${problems.join("; ")}`);
        const file = join(values.out, shot.file);
        await page.screenshot({ path: file, fullPage: shot.fullPage });
        console.log(`wrote ${file}`);
      } finally {
        await close();
      }
    }
  } finally {
    await browser.close();
  }
}

/**
 * A swap through the relay, followed to `final`, so the quote page shows every step; its quote id, its
 * winner's address and its taker's.
 */
async function swapToFinal(relayUrl: string): Promise<{ quoteId: string; resolver: string; taker: string }> {
  const res = await fetch(`${relayUrl}/v1/config`).catch(() => null);
  if (!res?.ok) throw new Error(`cannot read ${relayUrl}/v1/config: start the local stack with npm start`);
  const config = (await res.json()) as { tokens: { symbol: string; address: string }[] };
  const token = (symbol: string) => {
    const t = config.tokens.find((x) => x.symbol === symbol);
    if (!t) throw new Error(`the relay's chain has no ${symbol}`);
    return t.address;
  };
  const account = anvilAccount(Number(values.taker));
  const { signed, submission } = await swap({
    relayUrl,
    client: createPublicClient({ transport: http(values.rpc), pollingInterval: 250 }),
    account,
    sellToken: token("cNGN"),
    buyToken: token("USDC"),
    sellAmount: 1_580_000_000n,
  });
  await followToFinal(relayUrl, signed.quote.quoteId, {
    executionId: submission.answer.executionId,
    timeoutMs: 60_000,
  });
  console.log(`swapped: quote ${signed.quote.quoteId} is final`);
  const resolver = signed.quote.resolver?.address;
  if (!resolver) throw new Error(`quote ${signed.quote.quoteId} has no winner`);
  return { quoteId: signed.quote.quoteId, resolver, taker: account.address };
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
