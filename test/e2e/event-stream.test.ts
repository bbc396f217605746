import { describe, expect, it } from "vitest";
import { LOCAL_ACCOUNTS } from "../../scripts/lib/local-stack";
import { anvilAccount } from "../../src/clients/resolver/keys";
import { followToFinal } from "../../src/clients/taker/follow";
import { swap } from "../../src/clients/taker/swap";
import { SseClient } from "../support/sse-client";
import { base, client, deployment, withAlphaAndBeta } from "./evm-chain";

/**
 * A quote's event stream during a real swap on the local stack (docs/api.md, "Event streams"): opened
 * right after the quote, it shows each step as it happens and ends at `final`; a reconnect with
 * `Last-Event-ID` gets only what followed.
 */

const taker = anvilAccount(LOCAL_ACCOUNTS.takers[2]);
withAlphaAndBeta();

async function openStream(quoteId: string, lastEventId?: string) {
  const res = await fetch(`${base}/v1/quotes/${quoteId}/events`, {
    headers: lastEventId ? { "Last-Event-ID": lastEventId } : {},
  });
  expect(res.status).toBe(200);
  return new SseClient(res.body);
}

describe("a quote's event stream during a swap", () => {
  it("shows the steps as they happen, ends at final, and resumes after Last-Event-ID", async () => {
    let stream: Promise<SseClient> | null = null;
    const { signed } = await swap({
      relayUrl: base,
      client,
      account: taker,
      sellToken: deployment.cngn,
      buyToken: deployment.usdc,
      sellAmount: 1_580_000_000n,
      onQuoted: (quote) => {
        stream = openStream(quote.quoteId);
      },
    });
    const s = await (stream as unknown as Promise<SseClient>);
    const arrived: { id: string | null; event: string; at: number }[] = [];
    while (!s.done) {
      for (const e of await s.take(100)) arrived.push({ id: e.id, event: e.event, at: Date.now() });
    }
    expect(arrived.map((e) => [e.id, e.event])).toEqual([
      ["1", "requested"],
      ["2", "quoted"],
      ["3", "signed"],
      ["4", "submitted"],
      ["5", "settled"],
      ["6", "final"],
    ]);
    // Live, not replayed at the end: `final` comes a block after `settled`.
    const when = (name: string) => arrived.find((e) => e.event === name)?.at ?? 0;
    expect(when("final")).toBeGreaterThan(when("settled"));

    // The record agrees, and a reconnect after event 4 gets 5 and 6, then the end.
    const { quote } = await followToFinal(base, signed.quote.quoteId, { timeoutMs: 10_000 });
    expect(quote.timeline.map((t) => t.event)).toEqual(arrived.map((e) => e.event));
    const resumed = await openStream(signed.quote.quoteId, "4");
    expect((await resumed.end()).map((e) => [e.id, e.event])).toEqual([
      ["5", "settled"],
      ["6", "final"],
    ]);
  });
});
