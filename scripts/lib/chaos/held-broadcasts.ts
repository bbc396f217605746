/**
 * A JSON-RPC proxy in front of a chain, for the keeper: everything passes through, and when armed it holds
 * the answer to the next broadcast (`eth_sendRawTransaction`, `sendTransaction`) after the transaction has
 * reached the chain. While it holds, the keeper has stored the transaction and D1 has not heard of it: the
 * window in which a repeated Idempotency-Key can only be answered from the keeper's own storage
 * (docs/settlement.md, "Idempotency-Key"). A crash aimed there strikes it every time.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

const BROADCASTS = new Set(["eth_sendRawTransaction", "sendTransaction"]);
/** A held answer is let go after this even if nobody releases it. */
const MAX_HOLD_MS = 10_000;

function bodyOf(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = "";
    req.on("data", (chunk) => (data += chunk));
    req.on("end", () => resolve(data));
    req.on("error", reject);
  });
}

function isBroadcast(body: string): boolean {
  try {
    const calls = [JSON.parse(body)].flat() as { method?: unknown }[];
    return calls.some((c) => typeof c.method === "string" && BROADCASTS.has(c.method));
  } catch {
    return false;
  }
}

export interface HeldBroadcasts {
  /** The keeper's RPC URL for this chain. */
  url: string;
  /**
   * Holds the answer to the next broadcast; resolves once one has reached the chain and is held, with a
   * release that lets its answer go.
   */
  arm(): Promise<() => void>;
  /** Stops holding (an arm that caught nothing is dropped). */
  disarm(): void;
  stop(): Promise<void>;
}

export async function holdBroadcasts(targetUrl: string): Promise<HeldBroadcasts> {
  let armed: ((release: () => void) => void) | null = null;
  const server = createServer(async (req, res) => {
    try {
      const body = await bodyOf(req);
      const upstream = await fetch(targetUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      const answer = await upstream.text();
      if (armed && isBroadcast(body)) {
        const caught = armed;
        armed = null;
        await new Promise<void>((release) => {
          const timer = setTimeout(release, MAX_HOLD_MS);
          caught(() => {
            clearTimeout(timer);
            release();
          });
        });
      }
      res.writeHead(upstream.status, { "content-type": "application/json" });
      res.end(answer);
    } catch (e) {
      if (res.headersSent) return;
      res.writeHead(502, { "content-type": "text/plain" });
      res.end(String(e));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    arm: () => new Promise((resolve) => (armed = resolve)),
    disarm: () => {
      armed = null;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
