import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { seedExecution, seedQuote } from "../support/records";

const app = createApp();
const get = (path: string) => app.request(path, {}, env);

describe("GET /v1/quotes/{id}", () => {
  it("reads a stored quote back field for field", async () => {
    const { quote, offers, timeline } = await seedQuote(env.DB);
    const res = await get(`/v1/quotes/${quote.quoteId}`);
    expect(res.status).toBe(200);
    const { signing: _signing, ...expected } = quote;
    // One leg, the whole swap, from the offer that won (docs/legs.md).
    const won = offers.find((o) => o.won);
    const legs = [{ resolver: won?.resolver, sellAmount: quote.sellAmount, outputAmount: won?.outputAmount }];
    expect(await res.json()).toStrictEqual({ ...expected, offers, legs, executions: [], fills: [], timeline });
  });

  it("lists the quote's executions", async () => {
    const { quote } = await seedQuote(env.DB);
    const execution = await seedExecution(env.DB, quote.quoteId);
    const body = (await (await get(`/v1/quotes/${quote.quoteId}`)).json()) as { executions: unknown[] };
    expect(body.executions).toStrictEqual([
      {
        executionId: execution.executionId,
        status: "submitted",
        reason: null,
        blame: null,
        txHash: execution.txHash,
        submitter: execution.submitter,
        gasUsed: null,
        createdAt: execution.createdAt,
        updatedAt: execution.updatedAt,
      },
    ]);
  });

  it.each(["x", "q_unknown", `q_${"0".repeat(32)}`])("answers 404 not_found for %s", async (id) => {
    const res = await get(`/v1/quotes/${id}`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: "not_found", message: expect.any(String) });
  });
});

describe("GET /v1/executions/{id}", () => {
  it("reads an execution with its quote's lifecycle", async () => {
    const { quote } = await seedQuote(env.DB);
    const execution = await seedExecution(env.DB, quote.quoteId);
    const res = await get(`/v1/executions/${execution.executionId}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown> & { lifecycle: { quoteId: string } };
    const { createdAt: _c, ...fields } = execution;
    expect(body).toMatchObject(fields);
    expect(Object.keys(body).sort()).toEqual(
      [
        "executionId",
        "quoteId",
        "status",
        "reason",
        "blame",
        "txHash",
        "submitter",
        "gasUsed",
        "resolver",
        "proceeds",
        "takerPays",
        "keeper",
        "updatedAt",
        "lifecycle",
      ].sort(),
    );
    // A submitted execution has no books yet.
    expect(body.keeper).toBeNull();
    expect(body.lifecycle).toStrictEqual(await (await get(`/v1/quotes/${quote.quoteId}`)).json());
  });

  it("shows a quote past its expiry as expired, as GET /v1/quotes/{id} does", async () => {
    const past = new Date(Date.now() - 1_000).toISOString();
    const { quote } = await seedQuote(env.DB, { status: "signed", expiresAt: past });
    const execution = await seedExecution(env.DB, quote.quoteId);
    const body = (await (await get(`/v1/executions/${execution.executionId}`)).json()) as {
      lifecycle: { status: string };
    };
    expect(body.lifecycle.status).toBe("expired");
    expect(((await (await get(`/v1/quotes/${quote.quoteId}`)).json()) as { status: string }).status).toBe("expired");
  });

  it.each(["nope", `x_${"f".repeat(32)}`])("answers 404 not_found for %s", async (id) => {
    const res = await get(`/v1/executions/${id}`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: "not_found" });
  });
});
