import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ResolverClient } from "../../src/clients/resolver/client";
import { localConfig } from "../../src/config/local";
import type { Quote } from "../../src/schemas/quote";
import { startResolverFleet, stopFleet } from "../support/reference-resolvers";
import { type RelayProcess, startRelay } from "./harness";

/**
 * The archive on `wrangler dev` with its local R2 (docs/operations.md, "Archive"): a relay of its own, so
 * that archiving everything that ended touches no other file's quotes.
 */

const CNGN = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
const USDC = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0";
const TAKER = "0x976EA74026E726554dB657fA54763abd0C3a0aa9";
const ADMIN_TOKEN = "e2e-archive-admin";
/** Quotes live 5 s here, so one ends soon. */
const TTL_SECONDS = 5;

let relay: RelayProcess;
let fleet: ResolverClient[] = [];
beforeAll(async () => {
  const config = { ...structuredClone(localConfig), quoteTtlSeconds: TTL_SECONDS };
  config.oracle.corridors = [];
  config.oracle.natives = [];
  relay = await startRelay({ vars: { RELAY_CONFIG: JSON.stringify(config), ADMIN_TOKEN } });
  fleet = await startResolverFleet(relay.url, { count: 2, latencyMs: 10 });
}, 90_000);
afterAll(async () => {
  await stopFleet(fleet);
  await relay?.stop();
});

const read = async (path: string) => (await (await fetch(`${relay.url}${path}`)).json()) as Record<string, unknown>;

describe("the archive (wrangler dev, local D1 and R2)", () => {
  it("archives an ended quote: it reads as before with archived: true, and lists say from when they are complete", async () => {
    const asked = await fetch(`${relay.url}/v1/quotes`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ sellToken: CNGN, buyToken: USDC, sellAmount: "1580000000", taker: TAKER }),
    });
    expect(asked.status).toBe(200);
    const { quoteId, expiresAt } = (await asked.json()) as Quote;
    await new Promise((r) => setTimeout(r, Date.parse(expiresAt) - Date.now() + 500));
    const before = await read(`/v1/quotes/${quoteId}`);
    expect(before.status).toBe("expired");

    const archived = await fetch(`${relay.url}/v1/admin/archive`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN_TOKEN}` },
      body: JSON.stringify({ before: new Date().toISOString() }),
    });
    expect(archived.status).toBe(200);
    expect(await archived.json()).toMatchObject({ archived: 1, more: false });

    expect(await read(`/v1/quotes/${quoteId}`)).toStrictEqual({ ...before, archived: true });
    const page = await read("/v1/quotes");
    expect(page.quotes).toEqual([]);
    // Complete after the quote ended: its expiry was recorded at or after its expiresAt.
    expect((page.completeFrom as string) >= (before.expiresAt as string)).toBe(true);
  }, 60_000);

  it("answers 400 invalid_request on a time that is not one", async () => {
    const res = await fetch(`${relay.url}/v1/admin/archive`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN_TOKEN}` },
      body: JSON.stringify({ before: "tomorrow" }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_request" });
  });
});
