import createClient from "openapi-fetch";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { fund } from "../../scripts/lib/evm-deploy";
import { signPermit2Approval } from "../../src/clients/taker/permit";
import type { paths } from "../../src/clients/taker/relay-api";
import { quotePermit2, signQuote } from "../../src/clients/taker/sign";
import { balance, base, client, deployment, rpcUrl, withAlphaAndBeta } from "./evm-chain";

/**
 * A swap driven as a client developer drives it (docs/api.md, "A typed client"): every call goes
 * through openapi-fetch typed by the types generated from `GET /v1/openapi.json`
 * (src/clients/taker/relay-api.d.ts), so `tsc` checks each path, parameter, body and field read here
 * against the document the relay serves.
 */

const api = createClient<paths>({ baseUrl: base });
const { cngn, usdc } = deployment;
/** A taker of its own, holding both tokens and no Permit2 allowance: its first swap sends a permit. */
const taker = privateKeyToAccount(generatePrivateKey());
withAlphaAndBeta();

beforeAll(async () => {
  await fund(rpcUrl, deployment, { takers: [taker.address], amount: 10_000_000_000n });
});

/** The body of a success; throws with the status and the typed error body otherwise. */
function ok<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined) {
    throw new Error(`${result.response.url} answered ${result.response.status}: ${JSON.stringify(result.error)}`);
  }
  return result.data;
}

/** `GET /v1/quotes/{id}` until the quote is final, or failed or expired; the statuses it went through. */
async function followToFinal(quoteId: string, timeoutMs = 45_000) {
  const seen: string[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const quote = ok(await api.GET("/v1/quotes/{id}", { params: { path: { id: quoteId } } }));
    if (seen.at(-1) !== quote.status) seen.push(quote.status);
    if (quote.final || quote.status === "failed" || quote.status === "expired") return { quote, seen };
    if (Date.now() > deadline) throw new Error(`quote ${quoteId} is still ${quote.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe("a typed client generated from /v1/openapi.json (openapi-fetch, wrangler dev)", () => {
  it("quotes, signs, submits, follows the quote to final, reads the execution and lists the winner", async () => {
    const before = { cngn: await balance(cngn, taker.address), usdc: await balance(usdc, taker.address) };

    const quote = ok(
      await api.POST("/v1/quotes", {
        body: { sellToken: cngn, buyToken: usdc, sellAmount: "1580000000", taker: taker.address },
      }),
    );
    // 1,580 cNGN at the band's mid is 1 USDC; beta quotes 15 bps under, so alpha wins.
    expect(quote.status).toBe("quoted");
    expect(quote.offers.map((o) => [o.name, o.outputAmount, o.status])).toEqual([
      ["alpha", "1000000", "won"],
      ["beta", "998500", "lost"],
    ]);
    expect(quote.resolver?.name).toBe("alpha");
    // received = outputAmount less the fee and the gas fee, both in the buy token (docs/api.md, "Amounts").
    expect([quote.fee.token, quote.gasFee.token]).toEqual([usdc, usdc]);
    expect(BigInt(quote.received)).toBe(1_000_000n - BigInt(quote.fee.amount) - BigInt(quote.gasFee.amount));

    const { typedData } = quote;
    if (!typedData) throw new Error("an EVM quote carries the typed data its taker signs");
    const signable = { ...quote, typedData };
    // What the taker signs: the quote's Permit2 typed data, checked against the quote first, and an
    // EIP-2612 permit for Permit2 since this taker never approved it.
    const signature = await signQuote(taker, signable);
    const permit = await signPermit2Approval(client, {
      account: taker,
      token: cngn,
      permit2: quotePermit2(signable),
      deadline: BigInt(Math.floor(Date.now() / 1000) + 3_600),
    });

    const submitted = await api.POST("/v1/executions", {
      body: { quoteId: quote.quoteId, signature, permit },
      headers: { "Idempotency-Key": crypto.randomUUID() },
    });
    expect(submitted.response.status).toBe(202);
    const answer = ok(submitted);
    expect(answer).toMatchObject({ quoteId: quote.quoteId, status: "submitted" });
    expect(answer.txHash).toMatch(/^0x[0-9a-f]{64}$/);

    const { quote: final, seen } = await followToFinal(quote.quoteId);
    expect(final).toMatchObject({ status: "settled", final: true });
    expect(seen.at(-1)).toBe("settled");
    expect(final.timeline.map((t) => t.event)).toEqual([
      "requested",
      "quoted",
      "signed",
      "submitted",
      "settled",
      "final",
    ]);
    expect(final.settlement?.txHash).toBe(answer.txHash);
    expect(final.settlement?.confirmed).toBe(true);
    expect(final.executions.map((e) => [e.executionId, e.status])).toEqual([[answer.executionId, "settled"]]);
    expect(final.fills).toHaveLength(1);
    // What the quote said moved, to the base unit.
    expect(await balance(cngn, taker.address)).toBe(before.cngn - BigInt(final.takerPays));
    expect(await balance(usdc, taker.address)).toBe(before.usdc + BigInt(final.received));

    const execution = ok(await api.GET("/v1/executions/{id}", { params: { path: { id: answer.executionId } } }));
    expect(execution).toMatchObject({
      executionId: answer.executionId,
      quoteId: quote.quoteId,
      status: "settled",
      txHash: answer.txHash,
      resolver: quote.resolver?.address,
      blame: null,
    });
    expect(execution.keeper?.charged).toEqual({ token: quote.gasFee.token, amount: quote.gasFee.amount });
    expect(execution.lifecycle?.quoteId).toBe(quote.quoteId);
    expect(execution.lifecycle?.final).toBe(true);

    // The taker's swaps: this one, listed without its offers and timeline.
    const page = ok(await api.GET("/v1/quotes", { params: { query: { taker: taker.address, limit: "10" } } }));
    expect(page.quotes.map((q) => q.quoteId)).toEqual([quote.quoteId]);
    expect(page.quotes[0]).toMatchObject({ status: "settled", final: true, received: final.received });
    expect(page.nextCursor).toBeNull();

    const directory = ok(await api.GET("/v1/resolvers", { params: { query: { include: "inactive", limit: "100" } } }));
    const { resolvers } = directory;
    expect(directory.nextCursor).toBeNull();
    const winner = resolvers.find((r) => r.address === quote.resolver?.address);
    expect(winner).toMatchObject({ name: "alpha", online: true });
    expect(winner?.corridors).toContainEqual(expect.objectContaining({ chainId: quote.chainId }));
  }, 90_000);

  it("reads an error answer as the document's error shape", async () => {
    const { data, error, response } = await api.GET("/v1/executions/{id}", {
      params: { path: { id: `x_${"0".repeat(32)}` } },
    });
    expect(data).toBeUndefined();
    expect(response.status).toBe(404);
    expect(error?.error).toBe("not_found");
    expect(error?.message).toEqual(expect.any(String));
  });
});
