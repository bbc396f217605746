import type { Browser, Page } from "playwright-core";
import { formatUnits } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DESKTOP, launchChromium, type PageTrouble, PHONE, watchedPage } from "../../scripts/lib/chromium";
import { LOCAL_ACCOUNTS } from "../../scripts/lib/local-stack";
import { anvilAccount } from "../../src/clients/resolver/keys";
import { requestQuote, submitExecution } from "../../src/clients/taker/relay";
import { signForSubmission } from "../../src/clients/taker/swap";
import { base, client, deployment, withAlphaAndBeta } from "./evm-chain";

/**
 * The explorer (`/`) and the API reference (`/reference`) in a real headless Chromium against the e2e
 * relay with its resolvers alpha and beta (docs/explorer.md): what a reader sees, live, and that nothing
 * goes wrong on the way.
 */

const taker = anvilAccount(LOCAL_ACCOUNTS.takers[1]);
const alpha = anvilAccount(1);
const beta = anvilAccount(2);
withAlphaAndBeta();

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());

/** Runs `body` in a fresh page and closes it, whatever happens. */
async function inPage(viewport: typeof DESKTOP, body: (page: Page, trouble: PageTrouble) => Promise<void>) {
  const { page, trouble, close } = await watchedPage(browser, viewport);
  try {
    await body(page, trouble);
  } finally {
    await close();
  }
}

const noTrouble = { consoleErrors: [], pageErrors: [], failedRequests: [] };

/**
 * Run in the page: records every stage the quote page shows, in order, in `window.stagesSeen`. (A string,
 * as the tests are typed without the DOM.)
 */
const RECORD_STAGES = `{
  const seen = [document.getElementById("quote-stage").textContent];
  window.stagesSeen = seen;
  new MutationObserver(() => {
    const stage = document.getElementById("quote-stage")?.textContent;
    if (stage && stage !== seen[seen.length - 1]) seen.push(stage);
  }).observe(document.body, { childList: true, subtree: true, characterData: true });
}`;

const quoteCngnForUsdc = () =>
  requestQuote(base, {
    sellToken: deployment.cngn,
    buyToken: deployment.usdc,
    sellAmount: "1580000000",
    taker: taker.address,
  });

describe("the explorer's overview", () => {
  it("shows the corridors with their nodes, the local resolvers and the rate bands, without a console error", async () => {
    await inPage(DESKTOP, async (page, trouble) => {
      await page.goto(`${base}/`);
      const evmCorridor = page.locator("#corridors article", { hasText: "cNGN / USDC" }).first();
      const nodeNames = async () => (await evmCorridor.locator(".nodes li strong").allTextContents()).sort();
      await expect.poll(nodeNames).toEqual(["alpha", "beta"]);
      expect(await evmCorridor.textContent()).toMatch(/Band: 1 USD = 1,580 NGN/);
      for (const [name, account] of [
        ["alpha", alpha],
        ["beta", beta],
      ] as const) {
        const row = page.locator("#resolver-table tbody tr", { hasText: name });
        await expect.poll(() => row.count()).toBe(1);
        expect(await row.locator("code.address").getAttribute("title")).toBe(account.address);
        expect(await row.textContent()).toMatch(/online/);
      }
      const band = page.locator("#band-table tbody tr", { hasText: "on anvil" }).locator("td");
      expect((await band.allTextContents()).slice(0, 2)).toEqual(["USDC / cNGN on anvil", "1,580 NGN/USD"]);
      expect(await page.locator("#source-table tbody td").first().textContent()).toBe("local");
      // The keeper's books, one row per chain the relay settles on.
      const { chains } = (await (await fetch(`${base}/v1/config`)).json()) as { chains: unknown[] };
      expect(await page.locator("#keeper-table tbody tr").count()).toBe(chains.length);
      expect(await page.locator("#keeper-table tbody tr").first().textContent()).toMatch(/ETH/);
      expect(trouble).toEqual(noTrouble);
    });
  });

  it("pages the resolver directory with More, following nextCursor", async () => {
    const { resolvers } = (await (await fetch(`${base}/v1/resolvers?limit=100`)).json()) as {
      resolvers: { address: string }[];
    };
    expect(resolvers.map((r) => r.address)).toEqual(expect.arrayContaining([alpha.address, beta.address]));
    await inPage(DESKTOP, async (page, trouble) => {
      // One resolver a page, so each More reads the next page through its cursor.
      await page.route("**/v1/resolvers?*", (route) =>
        route.continue({
          url: route
            .request()
            .url()
            .replace(/limit=\d+/, "limit=1"),
        }),
      );
      await page.goto(`${base}/`);
      const listed = () =>
        page
          .locator("#resolver-table tbody tr code.address")
          .evaluateAll((codes) => codes.map((c) => c.getAttribute("title")));
      await expect.poll(listed).toEqual([resolvers[0]?.address]);
      for (let n = 2; n <= resolvers.length; n++) {
        await page.locator("#resolvers-more").click();
        await expect.poll(listed).toEqual(resolvers.slice(0, n).map((r) => r.address));
      }
      expect(await page.locator("#resolvers-more").count()).toBe(0);
      expect(trouble).toEqual(noTrouble);
    });
  });

  it("fits a phone's width: nothing wider than 390 px", async () => {
    await inPage(PHONE, async (page, trouble) => {
      await page.goto(`${base}/`);
      await page.locator("#resolver-table").waitFor();
      expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(PHONE.width);
      expect(trouble).toEqual(noTrouble);
    });
  });

  it("says the relay does not answer when its API cannot be reached", async () => {
    await inPage(DESKTOP, async (page, trouble) => {
      await page.route("**/v1/**", (route) => route.abort("connectionrefused"));
      await page.goto(`${base}/`);
      // The recent quotes, read apart, say it in their own section too.
      const problems = () => page.locator(".problem").allTextContents();
      await expect
        .poll(problems)
        .toEqual([
          expect.stringMatching(/^Could not read the relay\.The relay does not answer/),
          expect.stringMatching(/^Could not read the recent quotes\.The relay does not answer/),
        ]);
      expect(trouble.pageErrors).toEqual([]);
    });
  });
});

describe("a quote's page", () => {
  it("is found by the search, with the auction transcript: every offer's rank, latency and outcome", async () => {
    const quote = await quoteCngnForUsdc();
    await inPage(DESKTOP, async (page, trouble) => {
      await page.goto(`${base}/`);
      await page.getByLabel("Quote id").fill(quote.quoteId);
      await page.getByRole("button", { name: "Find quote" }).click();
      await page.locator("#offer-table").waitFor();
      expect(new URL(page.url()).hash).toBe(`#/quotes/${quote.quoteId}`);
      const rows = page.locator("#offer-table tbody tr");
      const cells = (i: number) => rows.nth(i).locator("td").allTextContents();
      expect(await rows.count()).toBe(2);
      // Rank, resolver, output, latency, outcome.
      expect(await cells(0)).toEqual(["1", "alpha 0x7099…79C8", "1 USDC", expect.stringMatching(/^\d+ ms$/), "won"]);
      expect(await cells(1)).toEqual([
        "2",
        "beta 0x3C44…93BC",
        "0.9985 USDC",
        expect.stringMatching(/^\d+ ms$/),
        "lost",
      ]);
      expect(await page.locator("#replies").textContent()).toBe(
        "Replies: 2 valid, 0 rejected, 0 declined, 0 without reply, 0 late.",
      );
      expect(await page.locator("#quote-stage").textContent()).toBe("quoted");
      expect(trouble).toEqual(noTrouble);
    });
  });

  it("follows the quote live from quoted to final while the taker signs and submits", async () => {
    const quote = await quoteCngnForUsdc();
    await inPage(DESKTOP, async (page, trouble) => {
      await page.goto(`${base}/#/quotes/${quote.quoteId}`);
      await expect.poll(() => page.locator("#live").textContent()).toBe("live");
      expect(await page.locator("#quote-stage").textContent()).toBe("quoted");
      await page.evaluate(RECORD_STAGES);
      const signed = await signForSubmission(client, taker, quote);
      const { answer } = await submitExecution(base, signed.request, { idempotencyKey: crypto.randomUUID() });
      expect(answer.status).toBe("submitted");

      await expect
        .poll(() => page.locator("#quote-stage").textContent(), { timeout: 30_000, interval: 200 })
        .toBe("final");
      // Still the same document (a reload would have lost the record), and it went through the steps.
      const seen = await page.evaluate<string[]>("window.stagesSeen");
      expect(seen[0]).toBe("quoted");
      expect(seen).toContain("settled");
      expect(seen[seen.length - 1]).toBe("final");
      expect(
        await page.locator(".timeline li").evaluateAll((lis) => lis.map((li) => li.getAttribute("data-event"))),
      ).toEqual(["requested", "quoted", "signed", "submitted", "settled", "final"]);
      await expect.poll(() => page.locator("#live").textContent()).toBe("complete");
      await expect.poll(() => page.locator("#settlement").textContent()).toMatch(/confirmed/);
      expect(trouble).toEqual(noTrouble);
    });
  });

  it("says so when no quote has the id", async () => {
    await inPage(PHONE, async (page, trouble) => {
      await page.goto(`${base}/#/quotes/q_${"0".repeat(32)}`);
      await expect.poll(() => page.locator(".problem").textContent()).toMatch(/No such quote/);
      expect(trouble.pageErrors).toEqual([]);
      // The browser itself logs the API's 404; the page adds nothing to it.
      expect(trouble.consoleErrors.every((e) => e.includes("404"))).toBe(true);
    });
  });
});

/** Polls `path` of the API until `ok` holds for its answer. */
async function untilApi<T>(path: string, ok: (body: T) => boolean): Promise<T> {
  let body: T | undefined;
  await expect
    .poll(
      async () => {
        body = (await (await fetch(`${base}${path}`)).json()) as T;
        return ok(body);
      },
      { timeout: 15_000, interval: 250 },
    )
    .toBe(true);
  return body as T;
}

describe("a swap's parties", () => {
  it("shows a swap on the overview's recent quotes, linked to its taker's page, which lists it", async () => {
    const quote = await quoteCngnForUsdc();
    const signed = await signForSubmission(client, taker, quote);
    await submitExecution(base, signed.request, { idempotencyKey: crypto.randomUUID() });
    await untilApi<{ quotes: { quoteId: string }[] }>("/v1/quotes?limit=10", (b) =>
      b.quotes.some((q) => q.quoteId === quote.quoteId),
    );
    await inPage(DESKTOP, async (page, trouble) => {
      await page.goto(`${base}/`);
      const row = page.locator(`#recent-quote-table tbody tr[data-quote-id="${quote.quoteId}"]`);
      await row.waitFor({ timeout: 10_000 });
      expect(await row.locator("a.quote-link").getAttribute("href")).toBe(`#/quotes/${quote.quoteId}`);
      // What the taker receives: the output less the fee and the gas fee.
      const swapped = `1,580 cNGN → ${formatUnits(BigInt(quote.received), 6)} USDC`;
      expect(await row.locator("td").nth(2).textContent()).toBe(swapped);
      expect(await row.locator("a.resolver-link").textContent()).toBe("alpha");
      expect(await row.locator("a.resolver-link").getAttribute("href")).toBe(`#/resolvers/${alpha.address}`);
      await row.locator("a.taker-link").click();
      expect(new URL(page.url()).hash).toBe(`#/takers/${taker.address}`);
      expect(await page.locator("#taker-address").textContent()).toBe(taker.address);
      const mine = page.locator(`#taker-quote-table tbody tr[data-quote-id="${quote.quoteId}"]`);
      await mine.waitFor();
      expect(await mine.locator("td").nth(2).textContent()).toBe(swapped);
      await expect.poll(() => page.locator("#limit-orders").textContent()).toMatch(/No limit order|Order/);
      expect(trouble).toEqual(noTrouble);
    });
  });

  it("pages a taker's swaps with More, following nextCursor", async () => {
    const { quotes } = await untilApi<{ quotes: { quoteId: string }[] }>(
      `/v1/quotes?taker=${taker.address}&limit=3`,
      (b) => b.quotes.length >= 3,
    );
    await inPage(PHONE, async (page, trouble) => {
      // One quote a page, so each More reads the next page through its cursor.
      await page.route("**/v1/quotes?taker=*", (route) =>
        route.continue({
          url: route
            .request()
            .url()
            .replace(/limit=\d+/, "limit=1"),
        }),
      );
      await page.goto(`${base}/#/takers/${taker.address}`);
      const ids = () =>
        page
          .locator("#taker-quote-table tbody tr")
          .evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-quote-id")));
      await expect.poll(ids).toEqual([quotes[0]?.quoteId]);
      await page.getByRole("button", { name: "More" }).first().click();
      await expect.poll(ids).toEqual([quotes[0]?.quoteId, quotes[1]?.quoteId]);
      await page.getByRole("button", { name: "More" }).first().click();
      await expect.poll(ids).toEqual(quotes.slice(0, 3).map((q) => q.quoteId));
      expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(PHONE.width);
      // The overview's recent quotes and keeper margin fit the phone too.
      await page.goto(`${base}/#/`);
      await page.locator("#recent-quote-table").waitFor();
      await page.locator("#keeper-table").waitFor();
      expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(PHONE.width);
      expect(trouble).toEqual(noTrouble);
    });
  });

  it("opens the winner's page from the quote: its standing, 7-day chart and wins, at a phone's width", async () => {
    const quote = await quoteCngnForUsdc();
    await untilApi<{ quotes: { quoteId: string }[] }>(`/v1/quotes?resolver=${alpha.address}&limit=5`, (b) =>
      b.quotes.some((q) => q.quoteId === quote.quoteId),
    );
    await inPage(PHONE, async (page, trouble) => {
      await page.goto(`${base}/#/quotes/${quote.quoteId}`);
      await page.locator(".facts a", { hasText: "alpha" }).click();
      await page.locator("#win-table").waitFor();
      expect(new URL(page.url()).hash).toBe(`#/resolvers/${alpha.address}`);
      expect(await page.locator("#resolver-address").textContent()).toBe(alpha.address);
      expect(await page.locator("#standing .pills").textContent()).toMatch(/online/);
      expect(await page.locator("#demotion").textContent()).toBe("Not demoted: its offers can win.");
      expect(await page.locator("#strikes").textContent()).toMatch(/No strike/);
      expect(await page.locator(`#win-table tbody tr[data-quote-id="${quote.quoteId}"]`).count()).toBe(1);
      // Today has replies: each chart draws a path for each of its two series.
      for (const chart of ["#rate-chart", "#latency-chart"]) {
        const paths = await page
          .locator(`${chart} .series path`)
          .evaluateAll((ps) => ps.map((p) => p.getAttribute("d")));
        expect(paths).toHaveLength(2);
      }
      expect(await page.locator("#rate-chart .series-response circle").count()).toBeGreaterThan(0);
      expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(PHONE.width);
      expect(trouble).toEqual(noTrouble);
    });
  });
});

describe("the API reference", () => {
  it("is linked from the explorer and renders the operations of /v1/openapi.json", async () => {
    await inPage(DESKTOP, async (page, trouble) => {
      await page.goto(`${base}/`);
      await page.getByRole("link", { name: "API reference" }).first().click();
      await page.waitForURL(`${base}/reference`);
      await page.locator(".opblock").first().waitFor();
      const paths = await page.locator(".opblock-summary-path").allTextContents();
      const clean = paths.map((p) => p.replace(/\u200b/g, "").trim());
      expect(clean).toEqual(expect.arrayContaining(["/v1/quotes", "/v1/quotes/{id}", "/v1/quotes/{id}/events"]));
      expect(trouble).toEqual(noTrouble);
    });
  });
});
