import { env } from "cloudflare:test";
import { keccak256, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it, vi } from "vitest";
import { createApp } from "../../src/app";
import { localConfig } from "../../src/config/local";
import { primaryEvmChain } from "../../src/config/record";
import { WORKERS_ADDRESS } from "../../src/limits";
import { keeperStub } from "../../src/objects";
import { seedQuote } from "../support/records";
import { authenticate, evmConnectPath, TestSocket } from "../support/ws-client";

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

const unknownQuote = (i: number) => `q_${i.toString(16).padStart(32, "0")}`;

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

  it("never counts submissions in flight: 30 of one client at once are all taken to the keeper", async () => {
    const quotes = await Promise.all(Array.from({ length: 30 }, () => seedQuote(env.DB)));
    const answers = await Promise.all(quotes.map(({ quote }) => submit("203.0.113.52", quote.quoteId)));
    // No keeper key in this project: the keeper answers each 503 not_leader, and none is refused 429.
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 503));
  });

  it("counts where every isolate's submissions are counted, the keeper leader", async () => {
    // The client's refused submissions as the Worker of other isolates hands them to the leader.
    const client = { client: "ip:203.0.113.53" };
    for (let i = 0; i < limits.failedSubmissionsPer10s; i++) {
      const outcome = await keeperStub(env).submit({
        quoteId: unknownQuote(1_000 + i),
        takerPart: { signature: JUNK },
        permit: null,
        idempotencyKey: null,
        client,
      });
      expect(outcome).toMatchObject({ kind: "refused", status: 404 });
    }
    const limited = await submit("203.0.113.53", unknownQuote(2_000));
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ error: "rate_limited" });
  });

  it("counts an API key's refused submissions at its own quota, from any address", async () => {
    const issued = await app.request(
      "/v1/admin/api-keys",
      {
        method: "POST",
        headers: { Authorization: "Bearer test-admin-token", "content-type": "application/json" },
        body: JSON.stringify({ name: "busy-backend", quotas: { failedSubmissionsPer10s: 40 } }),
      },
      env,
    );
    expect(issued.status).toBe(201);
    const { key } = (await issued.json()) as { key: string };
    const withKey = (i: number) =>
      app.request(
        "/v1/executions",
        {
          method: "POST",
          headers: { "content-type": "application/json", "X-Api-Key": key, "CF-Connecting-IP": `203.0.113.${i % 200}` },
          body: JSON.stringify({ quoteId: unknownQuote(6_000 + i), signature: JUNK }),
        },
        env,
      );
    for (let i = 0; i < 40; i++) expect((await withKey(i)).status).toBe(404);
    expect((await withKey(40)).status).toBe(429);
  });

  it("holds an IPv6 /48 to 100 refused in 10 s across its /64s; another /48 is served", async () => {
    const { failedSubmissionsPer10s: perClient, networkFailedSubmissionsPer10s: perNetwork } = limits;
    const started = Date.now();
    for (let subnet = 0; subnet < perNetwork / perClient; subnet++) {
      const answers = await Promise.all(
        Array.from({ length: perClient }, (_, i) => submit(`2001:db8:48:${subnet}::1`, unknownQuote(3_000 + i))),
      );
      expect(answers.map((r) => r.status)).toEqual(answers.map(() => 404));
    }
    // Each /64 after them is let through only as the /48 earns a refusal back (10 a second).
    let through = 0;
    for (let subnet = perNetwork / perClient; ; subnet++) {
      const answer = await submit(`2001:db8:48:${subnet.toString(16)}::1`, unknownQuote(4_000 + subnet));
      if (answer.status === 429) {
        expect(await answer.json()).toMatchObject({ error: "rate_limited", message: expect.stringContaining("/48") });
        break;
      }
      through += 1;
      expect(through).toBeLessThan(perClient);
    }
    expect(through).toBeLessThanOrEqual(Math.ceil(((Date.now() - started) / 1000) * (perNetwork / 10)));
    expect((await submit("2001:db8:49::1", unknownQuote(5_000))).status).toBe(404);
  });
});

const admin = (ip: string, token: string, origin?: string) =>
  app.request(
    "/v1/admin/keeper",
    { headers: { Authorization: `Bearer ${token}`, "CF-Connecting-IP": ip, ...(origin ? { Origin: origin } : {}) } },
    env,
  );

describe("the admin API", () => {
  it("answers an address's wrong tokens 429 past 10 a minute, and still serves its right one", async () => {
    for (let i = 0; i < limits.adminFailuresPerMinute; i++)
      expect((await admin("203.0.113.60", `guess-${i}`)).status).toBe(401);
    const blocked = await admin("203.0.113.60", "guess-again");
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("Retry-After")).toBe("6");
    expect((await admin("203.0.113.60", "test-admin-token")).status).toBe(200);
    expect((await admin("203.0.113.61", "guess-0")).status).toBe(401);
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

describe("resolver sockets per corridor", () => {
  it(`holds at most ${limits.socketsPerCorridor} for all clients, the last quarter for clients that hold none`, async () => {
    const opened: WebSocket[] = [];
    const refusals: Response[] = [];
    const take = async (ip: string, count: number) => {
      for (const res of await Promise.all(Array.from({ length: count }, () => connectFrom(ip)))) {
        if (res.status === 101 && res.webSocket) {
          res.webSocket.accept();
          opened.push(res.webSocket);
        } else refusals.push(res);
      }
    };
    // Clients at their own limit of new sockets would, before the cap, take every socket the corridor holds.
    const clients = Math.ceil(limits.socketsPerCorridor / limits.newSocketsPerMinute);
    for (let c = 0; c < clients; c++) await take(`2001:db8:${c + 1}::1`, limits.newSocketsPerMinute);
    const held = opened.length;
    expect(held).toBeLessThan(limits.socketsPerCorridor);
    expect(refusals.map((r) => [r.status, r.headers.get("Retry-After")])).toEqual(refusals.map(() => [503, "10"]));
    expect(refusals.length).toBeGreaterThan(0);
    expect(await refusals[0]?.json()).toMatchObject({ error: "corridor_busy" });
    // A client holding none still connects, up to the cap; then no one does.
    for (let c = 0; opened.length < limits.socketsPerCorridor; c++) await take(`198.51.100.${c}`, 1);
    const full = await connectFrom("203.0.113.99");
    expect(full.status).toBe(503);
    console.log(`sockets: ${held} held by ${clients} clients at their own limit; the cap ${limits.socketsPerCorridor}`);
    for (const ws of opened) ws.close();
  });
});

describe("a registered resolver's sockets", () => {
  it("count against the resolver, not its address: 15 registered nodes connect from one address in a minute", async () => {
    const ip = "203.0.113.80";
    const accounts = Array.from({ length: 15 }, (_, i) => privateKeyToAccount(keccak256(toHex(`fleet ${i}`))));
    for (const account of accounts) {
      const res = await app.request(
        `/v1/admin/resolvers/${account.address}`,
        {
          method: "PUT",
          body: JSON.stringify({ name: "fleet", registered: true }),
          headers: { "content-type": "application/json", authorization: "Bearer test-admin-token" },
        },
        env,
      );
      expect(res.status).toBe(200);
    }
    const sockets: TestSocket[] = [];
    const statuses: number[] = [];
    for (const account of accounts) {
      const res = await connectFrom(ip);
      statuses.push(res.status);
      if (res.status !== 101 || !res.webSocket) continue;
      const socket = new TestSocket(res.webSocket);
      sockets.push(socket);
      await authenticate(socket, account, { name: "fleet" });
      await socket.next("welcome");
    }
    console.log(`registered fleet: ${statuses.filter((s) => s === 101).length} of ${accounts.length} sockets accepted`);
    expect(statuses).toEqual(accounts.map(() => 101));
    // A stranger from the same address is still held to its limit: the fleet gave its slots back.
    const strangers: WebSocket[] = [];
    for (let i = 0; i < limits.newSocketsPerMinute; i++) {
      const res = await connectFrom(ip);
      expect(res.status).toBe(101);
      res.webSocket?.accept();
      if (res.webSocket) strangers.push(res.webSocket);
    }
    expect((await connectFrom(ip)).status).toBe(429);
    for (const ws of strangers) ws.close();
    for (const s of sockets) s.close();
  });
});

const [cngn, usdc] = primaryEvmChain(localConfig).tokens.map((t) => t.address);

/** A quote request with an API key from another Worker, whose zone Cloudflare names in `CF-Worker`. */
const quoteFromWorker = (zone: string, key: string) =>
  app.request(
    "/v1/quotes",
    {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "CF-Connecting-IP": WORKERS_ADDRESS,
        "CF-Worker": zone,
        "X-Api-Key": key,
      },
      body: JSON.stringify({
        sellToken: cngn,
        buyToken: usdc,
        sellAmount: "1580000000",
        taker: "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc",
      }),
    },
    env,
  );

describe("credentials are checked before they are counted", () => {
  it("keys other Workers by zone: one zone's 10 unknown keys lock out no other zone, nor a right key", async () => {
    const issued = await app.request(
      "/v1/admin/api-keys",
      {
        method: "POST",
        headers: { Authorization: "Bearer test-admin-token", "content-type": "application/json" },
        body: JSON.stringify({ name: "wallet-backend" }),
      },
      env,
    );
    const { key } = (await issued.json()) as { key: string };
    for (let i = 0; i < limits.apiKeyFailuresPerMinute; i++) {
      expect((await quoteFromWorker("guesser.example", `rk_guess${i}`)).status).toBe(401);
    }
    expect((await quoteFromWorker("guesser.example", "rk_guess-again")).status).toBe(429);
    // The right key from another Worker, and from the guessing one: served (404: no node is connected).
    expect((await quoteFromWorker("wallet.example", key)).status).toBe(404);
    expect((await quoteFromWorker("guesser.example", key)).status).toBe(404);
    // Another zone's unknown key is its own first wrong one.
    expect((await quoteFromWorker("other.example", "rk_guess0")).status).toBe(401);
    // Wrong API keys and wrong admin tokens are counted apart: the Workers' address has guessed no token.
    const token = await app.request(
      "/v1/admin/keeper",
      {
        headers: { Authorization: "Bearer wrong", "CF-Connecting-IP": WORKERS_ADDRESS, "CF-Worker": "guesser.example" },
      },
      env,
    );
    expect(token.status).toBe(401);
  });
});
