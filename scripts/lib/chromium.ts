/**
 * The installed Chromium (Debian's `chromium` package; `CHROMIUM_PATH` names another) driven by
 * playwright-core, for the explorer's browser tests and `npm run screenshots` (docs/explorer.md). Each
 * launch has its own temporary profile and reaches nothing but the pages it is sent to.
 */
import { existsSync } from "node:fs";
import { type Browser, chromium, type Page } from "playwright-core";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`no Chromium at ${CHROMIUM_PATH}: apt-get install chromium, or set CHROMIUM_PATH`);
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** A phone's viewport (an iPhone 12 to 15), and a desktop's. */
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 900 };

/** What went wrong in a page as a reader would notice it: console errors, uncaught errors, failed requests. */
export interface PageTrouble {
  consoleErrors: string[];
  pageErrors: string[];
  failedRequests: string[];
}

/** A new page in a fresh context, with everything that goes wrong in it collected. */
export async function watchedPage(
  browser: Browser,
  viewport = DESKTOP,
): Promise<{ page: Page; trouble: PageTrouble; close: () => Promise<void> }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const trouble: PageTrouble = { consoleErrors: [], pageErrors: [], failedRequests: [] };
  page.on("console", (m) => {
    if (m.type() === "error") trouble.consoleErrors.push(m.text());
  });
  page.on("pageerror", (e) => trouble.pageErrors.push(e.message));
  page.on("requestfailed", (r) => {
    const why = r.failure()?.errorText;
    // A request the browser dropped because the page navigated away (a favicon still loading) is no fault.
    if (why !== "net::ERR_ABORTED") trouble.failedRequests.push(`${r.url()}: ${why}`);
  });
  page.on("response", (r) => {
    if (r.status() >= 400) trouble.failedRequests.push(`${r.url()}: HTTP ${r.status()}`);
  });
  return { page, trouble, close: () => context.close() };
}
