import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { createApp } from "../../src/app";
import { localConfig } from "../../src/config/local";
import { seedQuote } from "../support/records";
import { evmConnectPath } from "../support/ws-client";

const app = createApp();
const limits = localConfig.limits;
const JUNK = `0x${"11".repeat(65)}`;

const submit = (ip: string, quoteId: string) =>
  app.request(
    "/v1/executions",
    {
      method: "POST",
      headers: { "content-type": "application/json", "CF-Connecting-IP": ip },
      body: JSON.stringify({ quoteId, signature: JUNK }),
    },
    env,
  );

describe("refused submissions count against the client that sent them", () => {
  it("answers 429 with Retry-After past 20 refused in 10 s, before reading anything, while another client is served", async () => {
    const { quote } = await seedQuote(env.DB);
    const statuses: number[] = [];
    for (let i = 0; i < limits.failedSubmissionsPer10s; i++) {
      statuses.push((await submit("203.0.113.50", `q_${i.toString(16).padStart(32, "0")}`)).status);
    }
    expect(new Set(statuses)).toEqual(new Set([404]));
    const limited = await submit("203.0.113.50", quote.quoteId);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expect(await limited.json()).toMatchObject({ error: "rate_limited" });
    // The quote's taker, from its own address, is not held back by the stranger's junk.
    expect((await submit("203.0.113.51", quote.quoteId)).status).toBe(503);
  });
});

const admin = (ip: string, token: string, origin?: string) =>
  app.request(
    "/v1/admin/keeper",
    { headers: { Authorization: `Bearer ${token}`, "CF-Connecting-IP": ip, ...(origin ? { Origin: origin } : {}) } },
    env,
  );

describe("the admin API", () => {
  it("answers 429 to an address past 10 wrong tokens a minute, even with the right one, and not another address", async () => {
    for (let i = 0; i < limits.adminFailuresPerMinute; i++)
      expect((await admin("203.0.113.60", `guess-${i}`)).status).toBe(401);
    const blocked = await admin("203.0.113.60", "test-admin-token");
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("Retry-After")).toBe("6");
    expect((await admin("203.0.113.61", "test-admin-token")).status).toBe(200);
  });

  it("answers no cross-origin request: no Access-Control-Allow-Origin on its answers or preflights", async () => {
    const answer = await admin("203.0.113.62", "test-admin-token", "https://evil.example");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Access-Control-Allow-Origin")).toBeNull();
    const preflight = await app.request(
      "/v1/admin/keeper/pause",
      {
        method: "OPTIONS",
        headers: { Origin: "https://evil.example", "Access-Control-Request-Method": "POST" },
      },
      env,
    );
    expect(preflight.headers.get("Access-Control-Allow-Origin")).toBeNull();
    const publicRead = await app.request("/v1/config", { headers: { Origin: "https://wallet.example" } }, env);
    expect(publicRead.headers.get("Access-Control-Allow-Origin")).toBe("*");
  });
});

const connectFrom = (ip: string) =>
  app.request(evmConnectPath, { headers: { upgrade: "websocket", "CF-Connecting-IP": ip } }, env);

describe("resolver sockets per client", () => {
  it("refuses a client's 11th socket in a minute with 429 and Retry-After; another client connects", async () => {
    const opened: WebSocket[] = [];
    for (let i = 0; i < limits.newSocketsPerMinute; i++) {
      const res = await connectFrom("203.0.113.70");
      expect(res.status).toBe(101);
      res.webSocket?.accept();
      if (res.webSocket) opened.push(res.webSocket);
    }
    const refused = await connectFrom("203.0.113.70");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toMatchObject({ error: "rate_limited" });
    const other = await connectFrom("203.0.113.71");
    expect(other.status).toBe(101);
    other.webSocket?.accept();
    other.webSocket?.close();
    for (const ws of opened) ws.close();
  });

  it("refuses a client's 51st socket held on a corridor with 429, a minute's rate or not; another client connects", async () => {
    // The clock alone is moved, a minute at a time, so the rate of new sockets lets the client reach 50 held:
    // from an hour ahead, so that no socket's 5 s for auth runs out before the test ends.
    const start = Date.now() + 3_600_000;
    vi.useFakeTimers({ toFake: ["Date"], now: start });
    const opened: WebSocket[] = [];
    try {
      for (let minute = 0; opened.length < limits.socketsPerClient; minute++) {
        vi.setSystemTime(start + minute * 61_000);
        for (let i = 0; i < limits.newSocketsPerMinute && opened.length < limits.socketsPerClient; i++) {
          const res = await connectFrom("203.0.113.72");
          expect(res.status).toBe(101);
          res.webSocket?.accept();
          if (res.webSocket) opened.push(res.webSocket);
        }
      }
      // A minute later the rate has a new socket to give, but the client holds its 50.
      vi.setSystemTime(start + 10 * 61_000);
      const refused = await connectFrom("203.0.113.72");
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
      expect(await refused.json()).toMatchObject({
        error: "rate_limited",
        message: `This client holds ${limits.socketsPerClient} sockets here already.`,
      });
      const other = await connectFrom("203.0.113.73");
      expect(other.status).toBe(101);
      other.webSocket?.accept();
      other.webSocket?.close();
    } finally {
      for (const ws of opened) ws.close();
      vi.useRealTimers();
    }
  });
});
