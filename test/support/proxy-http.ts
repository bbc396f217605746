import type { IncomingMessage, ServerResponse } from "node:http";

/** The whole body of a request to a test proxy (test/settlement/chain.global.ts, test/solana/chain.global.ts). */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = "";
    req.on("data", (chunk) => (data += chunk));
    req.on("end", () => resolve(data));
    req.on("error", reject);
  });
}

/** Answers a test proxy's request with a JSON body. */
export function send(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(body);
}
