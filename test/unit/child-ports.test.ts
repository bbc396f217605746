import { describe, expect, it } from "vitest";
import { listeningPort, readyPort } from "../../scripts/lib/local-stack";

describe("the port a child process says it bound", () => {
  it("is read from anvil's Listening line, and from no other", () => {
    expect(listeningPort("Listening on 127.0.0.1:40289")).toBe(40289);
    expect(listeningPort("Listening on 127.0.0.1:40289\r")).toBe(40289);
    expect(listeningPort("eth_chainId")).toBeNull();
    expect(listeningPort("Base Fee: 1000000000")).toBeNull();
    expect(listeningPort("Listening on 127.0.0.1:")).toBeNull();
  });

  it("is read from wrangler's Ready line, coloured or not, and from no other", () => {
    expect(readyPort("[wrangler:info] Ready on http://127.0.0.1:43117")).toBe(43117);
    expect(readyPort("[wrangler:info] Ready on \u001b[32mhttp://127.0.0.1:43117\u001b[39m")).toBe(43117);
    expect(readyPort("⎔ Starting local server...")).toBeNull();
    expect(readyPort("✘ [ERROR] listen EADDRINUSE: address already in use 127.0.0.1:43117")).toBeNull();
  });
});
