import { createServer } from "node:net";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** A loopback URL whose port this run holds and where every connection is closed at once. */
    closedRpcUrl: string;
  }
}

/**
 * The RPC of every chain a workers project runs without (docs/testing.md, "What each project talks to"):
 * a port of the run's own, held for the whole run, that answers no request. The local configuration's
 * chains are `npm start`'s (anvil on 8545, the Solana harness on 8899); a developer's running stack
 * there would answer the relay's reads, price its gas fees and cover a node's claims. A port picked
 * free and closed again could be taken by any other process later; one held here cannot.
 */
export default async function setup(project: TestProject) {
  const server = createServer((socket) => {
    // Reset, not a polite close: the client's request fails at once, as on a closed port.
    socket.on("error", () => {});
    socket.resetAndDestroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const address = server.address();
  if (typeof address !== "object" || !address) throw new Error("closed port: no address");
  project.provide("closedRpcUrl", `http://127.0.0.1:${address.port}`);
  return async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
}
