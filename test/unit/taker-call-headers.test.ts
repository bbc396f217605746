import { describe, expect, it } from "vitest";
import { submitExecution } from "../../src/clients/taker/relay";

/** A `fetch` that records each request's headers and answers 202 with an empty execution. */
function recordingFetch() {
  const seen: Headers[] = [];
  const fetch = (async (_url: string | URL | Request, init?: RequestInit) => {
    seen.push(new Headers(init?.headers));
    return new Response(JSON.stringify({ executionId: "x" }), { status: 202 });
  }) as typeof globalThis.fetch;
  return { seen, fetch };
}

describe("the taker library's extra headers", () => {
  it("sends the caller's headers with a call, its own headers winning", async () => {
    const { seen, fetch } = recordingFetch();
    await submitExecution(
      "http://relay.test",
      { quoteId: "q", transaction: "t" },
      {
        fetch,
        idempotencyKey: "mine",
        headers: { "cf-connecting-ip": "198.51.100.7", "idempotency-key": "theirs", "content-type": "text/plain" },
      },
    );
    expect(seen[0]?.get("cf-connecting-ip")).toBe("198.51.100.7");
    expect(seen[0]?.get("idempotency-key")).toBe("mine");
    expect(seen[0]?.get("content-type")).toBe("application/json");
  });

  it("sends no extra header when given none", async () => {
    const { seen, fetch } = recordingFetch();
    await submitExecution("http://relay.test", { quoteId: "q", transaction: "t" }, { fetch });
    expect([...(seen[0]?.keys() ?? [])].sort()).toEqual(["accept", "content-type"]);
  });
});
