import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { corridorTag } from "../../src/chains/corridor-keys";
import { newId } from "../../src/ids";
import { EVM, evmCorridorKey } from "../support/ws-client";

/**
 * Every call the Worker makes to a Durable Object (docs/api.md, "Conventions"): an object the runtime
 * cannot reach now, or that was reset while it held the call (a deploy, an eviction), is answered 503
 * `not_leader` with `Retry-After`, as quotes and submissions are, never a 500. Here every object of the
 * relay throws as the runtime does for one reset mid-call.
 */

const app = createApp();
const ADMIN = { authorization: "Bearer test-admin-token" };

/** A namespace whose every object throws, on every call, the error the runtime throws for a reset object. */
function resetNamespace(): DurableObjectNamespace {
  const reset = () =>
    Promise.reject(
      Object.assign(new Error("Durable Object reset because its code was updated."), {
        remote: true,
        durableObjectReset: true,
      }),
    );
  const stub = new Proxy({}, { get: (_target, name) => (name === "then" ? undefined : reset) });
  return { idFromName: () => ({}), get: () => stub } as unknown as DurableObjectNamespace;
}

const resetEnv = { ...env, CORRIDOR: resetNamespace(), KEEPER: resetNamespace(), ORACLE: resetNamespace() };
/** A quote id of the EVM corridor, which D1 does not hold: reading it asks the corridor to write through. */
const quoteId = newId("q", corridorTag(evmCorridorKey));
const taker = "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc";
const resolver = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

const CALLS: [string, string, string, Record<string, string>?, unknown?][] = [
  ["admin: demote", "POST", `/v1/admin/resolvers/${resolver}/demote`, ADMIN, { minutes: 5, reason: "test" }],
  ["admin: pause a corridor", "POST", `/v1/admin/corridors/${evmCorridorKey}/pause`, ADMIN, { reason: "test" }],
  ["admin: resume a corridor", "POST", `/v1/admin/corridors/${evmCorridorKey}/resume`, ADMIN],
  ["admin: pause the keeper", "POST", "/v1/admin/keeper/pause", ADMIN, { reason: "test" }],
  ["admin: resume the keeper", "POST", "/v1/admin/keeper/resume", ADMIN],
  ["admin: the keeper", "GET", "/v1/admin/keeper", ADMIN],
  [
    "prepare's gas fee",
    "POST",
    "/v1/limit-orders/prepare",
    {},
    {
      sellToken: EVM.cngn,
      buyToken: EVM.usdc,
      sellAmount: "158000000000",
      limitAmount: "100000000",
      taker,
      expiresInSeconds: 86_400,
    },
  ],
  ["a quote's event stream", "GET", `/v1/quotes/${quoteId}/events`],
  ["a quote read through its corridor", "GET", `/v1/quotes/${quoteId}`],
  ["the rates", "GET", "/v1/rates"],
];

describe("a Durable Object reset or unreachable", () => {
  it.each(CALLS)("%s: 503 not_leader with Retry-After, not a 500", async (_what, method, path, headers = {}, body) => {
    const init = { method, headers: { ...headers, ...(body ? { "content-type": "application/json" } : {}) } };
    const res = await app.request(path, body ? { ...init, body: JSON.stringify(body) } : init, resetEnv);
    const answer = (await res.json()) as { error: string; retryAfter?: number };
    expect([res.status, answer.error]).toEqual([503, "not_leader"]);
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expect(answer.retryAfter).toBeGreaterThanOrEqual(1);
  });
});
