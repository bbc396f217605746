import type { Socket } from "node:net";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, describe, expect, it } from "vitest";
import { LOCAL_ACCOUNTS } from "../../scripts/lib/local-stack";
import { anvilAccount } from "../../src/clients/resolver/keys";
import { requestQuote } from "../../src/clients/taker/relay";
import { signForSubmission } from "../../src/clients/taker/swap";
import { localConfig } from "../../src/config/local";
import { base, client, corridorUpgrade, deployment, withAlphaAndBeta } from "./evm-chain";

/**
 * Attacks by a client with nothing but the public API, on `wrangler dev` with the local stack's resolvers:
 * each is counted against the attacker's own address (CF-Connecting-IP, which the local relay takes as
 * sent) and leaves everyone else served (docs/security.md).
 */

const { cngn, usdc } = deployment;
const limits = localConfig.limits;
withAlphaAndBeta();

const quoteFrom = (ip: string, taker: string) =>
  fetch(`${base}/v1/quotes`, {
    method: "POST",
    headers: { "content-type": "application/json", "CF-Connecting-IP": ip },
    body: JSON.stringify({ sellToken: cngn, buyToken: usdc, sellAmount: "1580000000", taker }),
  });

describe("a flood of quote requests from one address", () => {
  it("is refused 429 past its burst, with Retry-After, whatever takers it names, while another address is served", async () => {
    const takers = Array.from(
      { length: 2 * limits.quoteBurst },
      () => privateKeyToAccount(generatePrivateKey()).address,
    );
    const flood = takers.map((taker) => quoteFrom("198.51.100.20", taker));
    const other = await quoteFrom("198.51.100.21", takers[0] as string);
    const answers = await Promise.all(flood);
    const refused = answers.filter((r) => r.status === 429);
    expect(other.status).toBe(200);
    // The burst, and what the rate gave back while the flood was answered.
    expect(refused.length).toBeGreaterThanOrEqual(limits.quoteBurst - 5);
    expect(answers.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(limits.quoteBurst);
    expect(Number(refused[0]?.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expect(await refused[0]?.json()).toMatchObject({ error: "rate_limited" });
  });
});

describe("a stranger's junk submissions for a taker's quote", () => {
  it("are counted against the stranger: 400 then 429, and the taker's own submission is answered 202", async () => {
    const taker = anvilAccount(LOCAL_ACCOUNTS.takers[1] as number);
    const quote = await requestQuote(base, {
      sellToken: cngn,
      buyToken: usdc,
      sellAmount: "1580000000",
      taker: taker.address,
    });
    const junk = (i: number) =>
      fetch(`${base}/v1/executions`, {
        method: "POST",
        headers: { "content-type": "application/json", "CF-Connecting-IP": "198.51.100.22" },
        body: JSON.stringify({ quoteId: quote.quoteId, signature: `0x${i.toString(16).padStart(130, "1")}` }),
      });
    // All at once, as a flood would send them: each is taken up to the stranger's submissions in flight,
    // and each refusal is counted once answered, so the burst leaves the stranger in debt.
    const count = limits.failedSubmissionsPer10s + 10;
    const statuses = await Promise.all(Array.from({ length: count }, async (_, i) => (await junk(i)).status));
    expect(statuses.filter((s) => s !== 400 && s !== 429)).toEqual([]);
    expect(statuses.filter((s) => s === 400).length).toBeLessThanOrEqual(limits.submissionsInFlightPerClient);
    const after = await junk(count);
    expect(after.status).toBe(429);
    expect(Number(after.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);

    const signed = await signForSubmission(client, taker, quote);
    const own = await fetch(`${base}/v1/executions`, {
      method: "POST",
      headers: { "content-type": "application/json", "CF-Connecting-IP": "198.51.100.23" },
      body: JSON.stringify(signed.request),
    });
    expect(own.status).toBe(202);
    expect(await own.json()).toMatchObject({ quoteId: quote.quoteId, status: "submitted" });
  });
});

/** Opens a resolver socket from `ip` with a bare HTTP upgrade: the socket once upgraded, or the status refused. */
function openSocket(ip: string): Promise<{ socket: Socket } | { status: number; retryAfter: string | null }> {
  return new Promise((resolve, reject) => {
    const req = corridorUpgrade(ip);
    req.on("upgrade", (_res, socket) => resolve({ socket }));
    req.on("response", (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, retryAfter: res.headers["retry-after"]?.toString() ?? null });
    });
    req.on("error", reject);
  });
}

describe("sockets from one address", () => {
  const held: Socket[] = [];
  afterAll(() => {
    for (const s of held) s.destroy();
  });

  it("are refused past 10 new a minute with 429 and Retry-After, while the stack's resolvers keep quoting", async () => {
    const outcomes = [];
    for (let i = 0; i < 60; i++) outcomes.push(await openSocket("198.51.100.30"));
    for (const o of outcomes) if ("socket" in o) held.push(o.socket);
    expect(held).toHaveLength(limits.newSocketsPerMinute);
    const refused = outcomes.filter((o) => "status" in o);
    expect(refused).toHaveLength(60 - limits.newSocketsPerMinute);
    expect(refused.every((o) => o.status === 429 && Number(o.retryAfter) >= 1)).toBe(true);

    const quote = await quoteFrom("198.51.100.31", privateKeyToAccount(generatePrivateKey()).address);
    expect(quote.status).toBe(200);
    const body = (await quote.json()) as { replies: { valid: number } };
    expect(body.replies.valid).toBe(2);
  });
});
