import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DECLINE_REASONS } from "../../src/protocol/decline-reasons";

/**
 * The decline reasons the protocol names (src/protocol/decline-reasons.ts, shown in the AsyncAPI
 * document) are the ones the reference resolver sends, and docs/resolver-protocol.md lists each.
 */

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");
const known = new Set(Object.keys(DECLINE_REASONS).map((r) => r.replace(/:<field>$/, ":")));

describe("decline reasons", () => {
  it("every reason the reference resolver declines with is a known one", () => {
    const sent = [
      ...read("src/clients/resolver/bidder.ts").matchAll(/decline\(["`]([a-z_]+:?)/g),
      ...read("src/clients/resolver/pricing.ts").matchAll(/decline: "([a-z_]+)"/g),
    ].map((m) => m[1] as string);
    expect(sent.length).toBeGreaterThan(10);
    expect(sent.filter((r) => !known.has(r))).toEqual([]);
  });

  it("docs/resolver-protocol.md lists every known reason", () => {
    const doc = read("docs/resolver-protocol.md");
    expect(Object.keys(DECLINE_REASONS).filter((r) => !doc.includes(`\`${r}\``))).toEqual([]);
  });
});
