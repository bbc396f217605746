import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DESKTOP, launchChromium, PHONE, watchedPage } from "../../scripts/lib/chromium";
import { LOCAL_ACCOUNTS } from "../../scripts/lib/local-stack";
import { anvilAccount } from "../../src/clients/resolver/keys";
import { requestQuote } from "../../src/clients/taker/relay";
import { base, deployment, withAlphaAndBeta } from "./evm-chain";

/**
 * The explorer's live ladder and a resolver's honest levels in a real headless Chromium, against the e2e
 * relay with alpha and beta streaming their ladders (docs/explorer.md, "The live ladder").
 */

const alpha = anvilAccount(LOCAL_ACCOUNTS.resolvers[0]);
const taker = anvilAccount(LOCAL_ACCOUNTS.takers[2]);
withAlphaAndBeta();

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());

const noTrouble = { consoleErrors: [], pageErrors: [], failedRequests: [] };

describe("the explorer's live ladder", () => {
  it("draws each direction's best ladder on the corridor's card, and redraws it as new ladders come in", async () => {
    const { page, trouble, close } = await watchedPage(browser, DESKTOP);
    try {
      await page.goto(`${base}/`);
      const card = page.locator("#corridors article", { hasText: "cNGN / USDC" }).first();
      const sell = card.locator(`figure.ladder[data-ladder="31337:${deployment.cngn}:${deployment.usdc}"]`);
      await expect.poll(() => sell.locator("path.ladder-line").count(), { timeout: 15_000 }).toBe(1);
      const d = await sell.locator("path.ladder-line").getAttribute("d");
      // A line through every rung, one dot each.
      const rungs = await sell.locator("circle.ladder-rung").count();
      expect(rungs).toBeGreaterThan(5);
      expect(d?.match(/[ML]/g)).toHaveLength(rungs);
      expect(await sell.locator("figcaption").textContent()).toBe("Live ladder: cNGN → USDC");
      // The band's mid is 1,580 NGN per USD: alpha's ladder pays about 0.000633 USDC per cNGN.
      expect(await sell.textContent()).toMatch(/1 cNGN = 0\.00063\d*–0\.00063\d* USDC, 2 resolvers/);
      const buy = card.locator(`figure.ladder[data-ladder="31337:${deployment.usdc}:${deployment.cngn}"]`);
      await expect.poll(() => buy.locator("path.ladder-line").count(), { timeout: 15_000 }).toBe(1);
      // The resolvers send their ladders every 3 s, and the page reads them every 2 s.
      const at = await sell.getAttribute("data-at");
      await expect.poll(() => sell.getAttribute("data-at"), { timeout: 10_000 }).not.toBe(at);
      expect(trouble).toEqual(noTrouble);
    } finally {
      await close();
    }
  });

  it("shows on a resolver's page how what it did with the rfqs its own ladders covered compared with them", async () => {
    await requestQuote(base, {
      sellToken: deployment.cngn,
      buyToken: deployment.usdc,
      sellAmount: "1580000000",
      taker: taker.address,
    });
    const { page, trouble, close } = await watchedPage(browser, PHONE);
    try {
      await page.goto(`${base}/#/resolvers/${alpha.address}`);
      const fact = page.locator(".facts", { hasText: "Price ladders" });
      await expect
        .poll(
          async () => {
            await page.reload();
            return fact.textContent();
          },
          { timeout: 15_000 },
        )
        .toMatch(/slippage p50 -?\d+ bps, p90 -?\d+ bps over \d+ rfqs? its own ladder covered/);
      expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(PHONE.width);
      expect(trouble).toEqual(noTrouble);
    } finally {
      await close();
    }
  });
});
