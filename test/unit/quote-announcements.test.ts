import { afterEach, describe, expect, it, vi } from "vitest";
import { allCorridors, corridorTag } from "../../src/chains/corridor-keys";
import { localConfig } from "../../src/config/local";
import type { Env } from "../../src/env";
import { newId } from "../../src/ids";
import { announceQuotes, QuoteAnnouncements, type QuoteChange, type QuoteMove } from "../../src/streams/announce";

/**
 * The keeper's announcements of quote moves (docs/architecture.md, "Both paths in time"): the moves of one
 * moment reach each corridor in one call, with its share of them in order and the winner's notice only
 * where the winner's corridor is.
 */

afterEach(() => {
  vi.useRealTimers();
});

/** A corridor namespace whose objects keep each call they get, by corridor key. */
function corridorsEnv() {
  const calls: [string, QuoteChange[]][] = [];
  const CORRIDOR = {
    idFromName: (key: string) => key,
    get: (key: string) => ({
      quotesChanged: async (changes: QuoteChange[]) => {
        calls.push([key, changes]);
      },
    }),
  };
  return { env: { CORRIDOR } as unknown as Env, calls };
}

const [first, second] = allCorridors(localConfig).map((c) => c.key);
const quoteOf = (key: string | undefined) => newId("q", corridorTag(key ?? ""));

describe("announceQuotes", () => {
  it("makes one call per corridor, each with its own quotes in order", async () => {
    if (!first || !second) throw new Error("the local configuration has fewer than two corridors");
    const { env, calls } = corridorsEnv();
    const [a, b, c] = [quoteOf(first), quoteOf(second), quoteOf(first)];
    const fill = { corridorKey: first, resolver: "0xabc", status: "submitted" as const, txHash: "0x01" };
    await announceQuotes(env, localConfig, [{ quoteId: a, fill }, { quoteId: b }, { quoteId: c }]);
    expect(calls).toEqual([
      [
        first,
        [
          { quoteId: a, fill: { resolver: "0xabc", status: "submitted", txHash: "0x01", fault: undefined } },
          { quoteId: c, fill: undefined },
        ],
      ],
      [second, [{ quoteId: b, fill: undefined }]],
    ]);
  });
});

describe("QuoteAnnouncements", () => {
  it("sends the moves added in one turn together, and a later one on its own", async () => {
    vi.useFakeTimers();
    const sent: QuoteMove[][] = [];
    const announcements = new QuoteAnnouncements((moves) => sent.push(moves));
    announcements.add({ quoteId: "q_1" });
    announcements.add({ quoteId: "q_2" });
    expect(sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(0);
    announcements.add({ quoteId: "q_3" });
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toEqual([[{ quoteId: "q_1" }, { quoteId: "q_2" }], [{ quoteId: "q_3" }]]);
  });
});
