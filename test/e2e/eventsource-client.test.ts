import { type ErrorEvent, EventSource, type FetchLike } from "eventsource";
import { describe, expect, it } from "vitest";
import { LOCAL_ACCOUNTS } from "../../scripts/lib/local-stack";
import { anvilAccount } from "../../src/clients/resolver/keys";
import { swap } from "../../src/clients/taker/swap";
import { base, client, deployment, withAlphaAndBeta } from "./evm-chain";

/**
 * A quote's event stream read by a standard `EventSource` (the `eventsource` package, as a Node or browser
 * client would): it gets every event of a swap through `final`, reconnects once with the last event's id
 * as `Last-Event-ID`, is answered 204 and stops for good (docs/api.md, "Event streams", "Resume").
 */

const taker = anvilAccount(LOCAL_ACCOUNTS.takers[2]);
withAlphaAndBeta();

const QUOTE_EVENTS = ["requested", "quoted", "signed", "submitted", "settled", "final", "failed", "cancelled"];
/** How long a closed EventSource is watched for a request it should not make: three reconnect delays. */
const QUIET_MS = 3_000;

interface SeenRequest {
  lastEventId: string | null;
  status: number | null;
}

/**
 * An EventSource on `url` whose every request goes through a counting `fetch`; `answer` may stand in
 * for the relay's response (the control below). `closed` settles at the first error that leaves it CLOSED.
 */
function watch(url: string, answer: (res: Response) => Response = (res) => res) {
  const requests: SeenRequest[] = [];
  const counting: FetchLike = async (input, init) => {
    const seen: SeenRequest = { lastEventId: init.headers["Last-Event-ID"] ?? null, status: null };
    requests.push(seen);
    const res = answer(await fetch(input, init));
    seen.status = res.status;
    return res;
  };
  const es = new EventSource(url, { fetch: counting });
  const events: [string, string][] = [];
  for (const name of QUOTE_EVENTS) {
    es.addEventListener(name, (e) => events.push([e.lastEventId, e.type]));
  }
  const closed = new Promise<ErrorEvent>((resolve) => {
    es.addEventListener("error", (e) => {
      if (es.readyState === EventSource.CLOSED) resolve(e);
    });
  });
  return { es, requests, events, closed };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `promise`, or a failure naming what was seen if it has not settled within `ms`. */
async function within<T>(promise: Promise<T>, ms: number, seen: () => unknown): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not closed after ${ms} ms: ${JSON.stringify(seen())}`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe("an EventSource on a quote's stream", () => {
  let quoteId = "";

  it("gets every event to final, is answered 204 on its reconnect and makes no request after", async () => {
    let watched: ReturnType<typeof watch> | null = null;
    const { signed } = await swap({
      relayUrl: base,
      client,
      account: taker,
      sellToken: deployment.cngn,
      buyToken: deployment.usdc,
      sellAmount: 1_580_000_000n,
      onQuoted: (quote) => {
        watched = watch(`${base}/v1/quotes/${quote.quoteId}/events`);
      },
    });
    quoteId = signed.quote.quoteId;
    const { es, requests, events, closed } = watched as unknown as ReturnType<typeof watch>;
    try {
      const end = await within(closed, 30_000, () => ({ readyState: es.readyState, requests, events }));
      expect(events).toEqual([
        ["1", "requested"],
        ["2", "quoted"],
        ["3", "signed"],
        ["4", "submitted"],
        ["5", "settled"],
        ["6", "final"],
      ]);
      // The stream ended after `final`; the one reconnect carried its id and was told there is no more.
      expect(requests).toEqual([
        { lastEventId: null, status: 200 },
        { lastEventId: "6", status: 204 },
      ]);
      expect(end.code).toBe(204);
      expect(es.readyState).toBe(EventSource.CLOSED);
      await sleep(QUIET_MS);
      expect(requests).toHaveLength(2);
      expect(es.readyState).toBe(EventSource.CLOSED);
    } finally {
      es.close();
    }
  });

  it("control: an empty 200 in place of that 204 would have it reconnect again and again", async () => {
    expect(quoteId).not.toBe("");
    const emptyStream = () =>
      new Response("retry: 1000\n\n", { status: 200, headers: { "content-type": "text/event-stream" } });
    const { es, requests, events } = watch(`${base}/v1/quotes/${quoteId}/events`, (res) =>
      res.status === 204 ? emptyStream() : res,
    );
    try {
      // The whole history at once, then the reconnects the relay's 204 would have stopped.
      await expect.poll(() => requests.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
      const before = requests.length;
      await sleep(QUIET_MS);
      expect(events.map(([, name]) => name)).toEqual([
        "requested",
        "quoted",
        "signed",
        "submitted",
        "settled",
        "final",
      ]);
      expect(requests.length).toBeGreaterThan(before);
      expect(requests.slice(1).every((r) => r.lastEventId === "6")).toBe(true);
      expect(es.readyState).not.toBe(EventSource.CLOSED);
    } finally {
      es.close();
    }
  });
});
