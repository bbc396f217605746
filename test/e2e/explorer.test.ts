import type { Browser, Page } from "playwright-core";
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
      await expect.poll(() => page.locator(".problem").textContent()).toMatch(/The relay does not answer/);
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
