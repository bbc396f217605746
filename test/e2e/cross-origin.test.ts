import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, type PageTrouble, watchedPage } from "../../scripts/lib/chromium";
import { LOCAL_ACCOUNTS } from "../../scripts/lib/local-stack";
import { anvilAccount } from "../../src/clients/resolver/keys";
import { base, deployment, withAlphaAndBeta } from "./evm-chain";

/**
 * The API from a page of another origin in a real headless Chromium (docs/api.md, "Conventions": CORS
 * open to any origin). The page is served by a small HTTP server on its own port and calls the relay
 * with `fetch`; every call carries a header that is not CORS-safelisted, so the browser asks a preflight
 * first. The page reads the headers the relay exposes (`X-Request-Id`, `Retry-After`, `Server-Timing`)
 * and the quote's Server-Timing phases through Resource Timing, which `Timing-Allow-Origin: *` opens to
 * it (docs/api.md, "Server-Timing").
 */

const taker = anvilAccount(LOCAL_ACCOUNTS.takers[1]);
withAlphaAndBeta();

/** What the page saw of one call: only the headers CORS lets it read, and the body as text. */
interface PageAnswer {
  ok: boolean;
  error?: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

interface PageTiming {
  requestStart: number;
  serverTiming: { name: string; duration: number }[];
}

/** The functions the page's script defines (run in the page, so typed here by hand). */
interface PageApi {
  relayCall(
    path: string,
    init: { method?: string; headers?: Record<string, string>; body?: string },
  ): Promise<PageAnswer>;
  readStream(path: string, headers: Record<string, string>, until: string): Promise<PageAnswer>;
  timingsOf(path: string): Promise<PageTiming[]>;
}

function pageHtml(relayUrl: string): string {
  return `<!doctype html>
<html>
<head><meta charset="utf-8"><link rel="icon" href="data:,"><title>A taker's page</title></head>
<body>
<script>
const RELAY = ${JSON.stringify(relayUrl)};
const readable = (res) => {
  const headers = {};
  res.headers.forEach((value, name) => { headers[name] = value; });
  return headers;
};
window.relayCall = async (path, init) => {
  try {
    const res = await fetch(RELAY + path, init);
    return { ok: true, status: res.status, headers: readable(res), body: await res.text() };
  } catch (e) {
    return { ok: false, error: String(e), status: 0, headers: {}, body: "" };
  }
};
window.readStream = async (path, headers, until) => {
  const abort = new AbortController();
  try {
    const res = await fetch(RELAY + path, { headers, signal: abort.signal });
    let body = "";
    if (res.body) {
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      while (!body.includes(until)) {
        const { done, value } = await reader.read();
        if (done) break;
        body += decoder.decode(value, { stream: true });
      }
    }
    return { ok: true, status: res.status, headers: readable(res), body };
  } catch (e) {
    return { ok: false, error: String(e), status: 0, headers: {}, body: "" };
  } finally {
    abort.abort();
  }
};
window.timingsOf = async (path) => {
  for (let i = 0; i < 50; i++) {
    const entries = performance.getEntriesByType("resource").filter((e) => e.name === RELAY + path);
    if (entries.length) {
      return entries.map((e) => ({
        requestStart: e.requestStart,
        serverTiming: e.serverTiming.map((t) => ({ name: t.name, duration: t.duration })),
      }));
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return [];
};
</script>
</body>
</html>`;
}

let browser: Browser;
let pageServer: Server;
let pageUrl = "";
beforeAll(async () => {
  const html = pageHtml(base);
  pageServer = createServer((req, res) => {
    if (req.url === "/") res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => pageServer.listen(0, "127.0.0.1", resolve));
  pageUrl = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}/`;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => pageServer?.close(resolve));
});

/** A preflight the browser sent: its URL, the headers it asked to send, and the relay's status. */
interface Preflight {
  url: string;
  requestHeaders: string;
  status: number | null;
}

/**
 * Runs `body` in a fresh page on the other origin, with every CORS preflight the browser sends recorded
 * through the DevTools protocol (a page's own scripts never see them): `preflights()` lists them so far.
 */
async function onOtherOrigin(body: (page: Page, preflights: () => Preflight[], trouble: PageTrouble) => Promise<void>) {
  const { page, trouble, close } = await watchedPage(browser);
  try {
    const sent = new Map<string, string>();
    const askedHeaders = new Map<string, string>();
    const statuses = new Map<string, number>();
    const cdp = await page.context().newCDPSession(page);
    cdp.on("Network.requestWillBeSent", (e) => {
      if (e.initiator.type === "preflight") sent.set(e.requestId, e.request.url);
    });
    // The headers as they went on the wire, Access-Control-Request-Headers among them.
    cdp.on("Network.requestWillBeSentExtraInfo", (e) => {
      const asked = Object.entries(e.headers).find(([name]) => name.toLowerCase() === "access-control-request-headers");
      if (asked) askedHeaders.set(e.requestId, String(asked[1]));
    });
    cdp.on("Network.responseReceived", (e) => {
      if (e.type === "Preflight") statuses.set(e.requestId, e.response.status);
    });
    await cdp.send("Network.enable");
    await page.goto(pageUrl);
    expect(await page.evaluate<string>("location.origin")).not.toBe(new URL(base).origin);
    const preflights = () =>
      [...sent].map(([id, url]) => ({
        url,
        requestHeaders: askedHeaders.get(id) ?? "",
        status: statuses.get(id) ?? null,
      }));
    await body(page, preflights, trouble);
  } finally {
    await close();
  }
}

const api = (page: Page) => ({
  relayCall: (path: string, init: Parameters<PageApi["relayCall"]>[1]) =>
    page.evaluate(([p, i]) => (globalThis as unknown as PageApi).relayCall(p, i), [path, init] as const),
  readStream: (path: string, headers: Record<string, string>, until: string) =>
    page.evaluate(([p, h, u]) => (globalThis as unknown as PageApi).readStream(p, h, u), [
      path,
      headers,
      until,
    ] as const),
  timingsOf: (path: string) => page.evaluate((p) => (globalThis as unknown as PageApi).timingsOf(p), path),
});

const quoteBody = JSON.stringify({
  sellToken: deployment.cngn,
  buyToken: deployment.usdc,
  sellAmount: "1580000000",
  taker: taker.address,
});
const postQuote = (requestId: string) => ({
  method: "POST",
  headers: { "Content-Type": "application/json", "X-Request-Id": requestId },
  body: quoteBody,
});

const noTrouble = { consoleErrors: [], pageErrors: [], failedRequests: [] };

describe("the API from a page of another origin", () => {
  let quoteId = "";

  it("answers GET /v1/config and POST /v1/quotes after their preflights, with X-Request-Id and Server-Timing readable", async () => {
    await onOtherOrigin(async (page, preflights, trouble) => {
      const { relayCall, timingsOf } = api(page);
      const config = await relayCall("/v1/config", { headers: { "X-Request-Id": "page-config-1" } });
      expect(config).toMatchObject({ ok: true, status: 200 });
      expect(config.headers["x-request-id"]).toBe("page-config-1");
      expect(JSON.parse(config.body)).toMatchObject({ chainId: 31337 });

      const quote = await relayCall("/v1/quotes", postQuote("page-quote-1"));
      expect(quote).toMatchObject({ ok: true, status: 200 });
      expect(quote.headers["x-request-id"]).toBe("page-quote-1");
      expect(quote.headers["server-timing"]).toMatch(/\btotal;dur=/);
      quoteId = (JSON.parse(quote.body) as { quoteId: string }).quoteId;
      expect(quoteId).toMatch(/^q_/);

      // The browser asked before each call, for the headers the page sends.
      const asked = (path: string) => preflights().filter((p) => p.url === `${base}${path}`);
      await expect
        .poll(() => asked("/v1/config"))
        .toEqual([{ url: `${base}/v1/config`, requestHeaders: "x-request-id", status: 204 }]);
      await expect
        .poll(() => asked("/v1/quotes"))
        .toEqual([{ url: `${base}/v1/quotes`, requestHeaders: "content-type,x-request-id", status: 204 }]);

      // Resource Timing: the relay's phases, and the detailed timings Timing-Allow-Origin opens.
      const [timing] = await timingsOf("/v1/quotes");
      expect(timing?.serverTiming.map((t) => t.name)).toEqual(["auction", "ranking", "storage", "total"]);
      const total = timing?.serverTiming.find((t) => t.name === "total")?.duration ?? 0;
      expect(total).toBeGreaterThan(0);
      expect(timing?.requestStart).toBeGreaterThan(0);
      expect(trouble).toEqual(noTrouble);
    });
  });

  it("resumes the quote's event stream with Last-Event-ID after its preflight", async () => {
    expect(quoteId).not.toBe("");
    await onOtherOrigin(async (page, preflights, trouble) => {
      const path = `/v1/quotes/${quoteId}/events`;
      const stream = await api(page).readStream(
        path,
        { "Last-Event-ID": "1", "X-Request-Id": "page-stream-1" },
        "event: quoted",
      );
      expect(stream).toMatchObject({ ok: true, status: 200 });
      expect(stream.headers["content-type"]).toMatch(/^text\/event-stream/);
      expect(stream.headers["x-request-id"]).toBe("page-stream-1");
      // Only what followed event 1.
      expect(stream.body).toContain("id: 2\nevent: quoted\n");
      expect(stream.body).not.toContain("event: requested");
      await expect
        .poll(preflights)
        .toEqual([{ url: `${base}${path}`, requestHeaders: "last-event-id,x-request-id", status: 204 }]);
      expect(trouble).toEqual(noTrouble);
    });
  });

  it("reads Retry-After on a refused quote request", async () => {
    await onOtherOrigin(async (page, _preflights, trouble) => {
      const { relayCall } = api(page);
      // More requests at once than the taker may have in flight (maxOutstandingRfqs, 3 locally): the
      // ones over are refused with 429 too_many_rfqs and a Retry-After. Auctions can end early, so a
      // burst may not overlap enough; a few bursts are allowed.
      let refused: PageAnswer[] = [];
      for (let burst = 0; burst < 5 && refused.length === 0; burst++) {
        const answers = await Promise.all(
          Array.from({ length: 6 }, (_, i) => relayCall("/v1/quotes", postQuote(`page-burst-${burst}-${i}`))),
        );
        expect(answers.every((a) => a.ok)).toBe(true);
        answers.forEach((a, i) => {
          expect(a.headers["x-request-id"]).toBe(`page-burst-${burst}-${i}`);
        });
        refused = answers.filter((a) => a.status === 429);
      }
      expect(refused.length).toBeGreaterThan(0);
      for (const answer of refused) {
        const body = JSON.parse(answer.body) as { error: string; retryAfter: number };
        expect(body.error).toBe("too_many_rfqs");
        expect(answer.headers["retry-after"]).toBe(String(body.retryAfter));
      }
      // The browser logs the 429s it received; nothing else went wrong, and nothing was blocked.
      expect(trouble.pageErrors).toEqual([]);
      expect(trouble.consoleErrors.filter((e) => !e.includes("429"))).toEqual([]);
      expect(trouble.failedRequests.filter((r) => !r.endsWith("HTTP 429"))).toEqual([]);
    });
  });
});
