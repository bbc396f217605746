import { DurableObject } from "cloudflare:workers";
import type { FloorSubmission, FloorSubmitted } from "./protocol";

export interface KeeperEnv {
  /** The chain's JSON-RPC endpoint, given by the bench (`--var RPC_URL:…`). */
  RPC_URL: string;
}

/**
 * The floor's keeper (bench/README.md, "The floor"): one object for every submission, as the
 * relay's keeper is one leader; it simulates the bench's call (`eth_call`) and broadcasts the bench's
 * signed transaction (`eth_sendRawTransaction`). No checks, no keys, no storage.
 */
export class FloorKeeper extends DurableObject<KeeperEnv> {
  async submit(submission: FloorSubmission): Promise<FloorSubmitted> {
    await this.rpc("eth_call", [submission.call, "latest"]);
    return { txHash: String(await this.rpc("eth_sendRawTransaction", [submission.raw])) };
  }

  private async rpc(method: string, params: unknown[]): Promise<unknown> {
    const res = await fetch(this.env.RPC_URL, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    const body = (await res.json()) as { result?: unknown; error?: { message: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result;
  }
}
