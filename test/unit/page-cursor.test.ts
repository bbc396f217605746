import { describe, expect, it } from "vitest";
import { decodeKeyCursor, encodeCursor, encodeKeyCursor } from "../../src/db/page-cursor";

const isAddress = (k: string) => /^0x[0-9a-f]{40}$/.test(k);

describe("key cursors (lists in the order of a key that never changes)", () => {
  it("give back the key they were made of, opaque and URL-safe", () => {
    const key = `0x${"ab".repeat(20)}`;
    const cursor = encodeKeyCursor(key);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(cursor).not.toContain(key);
    expect(decodeKeyCursor(cursor, isAddress)).toBe(key);
  });

  it("refuse what the list did not give out: other text, another list's cursor, a key the list does not have", () => {
    for (const bad of ["", "!!", "a".repeat(201), btoa(`0x${"ab".repeat(20)}`), encodeKeyCursor("0xAB")]) {
      expect(decodeKeyCursor(bad, isAddress)).toBeNull();
    }
    const timed = encodeCursor({ at: "2026-01-01T00:00:00.000Z", id: `q_${"ab".repeat(16)}` });
    expect(decodeKeyCursor(timed, isAddress)).toBeNull();
  });
});
