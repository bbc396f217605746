/**
 * Submissions to the bare floor (bench/floor/keeper.ts, bench/README.md "The floor"): a plain ERC-20
 * transfer from an anvil account of its own, signed ahead by the bench, and the call it simulates.
 */
import { encodeFunctionData, parseAbi, parseGwei } from "viem";
import { anvilAccount } from "../src/clients/resolver/keys";
import { clientHeaders } from "./clients";
import { cngn, FIRST_EXTRA_ACCOUNT, type Stack } from "./execute-stack";
import type { FloorSubmission } from "./floor/protocol";

/** The floor's transactions move 1 unit of cNGN here. */
const SINK = "0x000000000000000000000000000000000000f100";
const transferAbi = parseAbi(["function transfer(address to, uint256 amount) returns (bool)"]);

/**
 * The floor's sender: an anvil account of its own (the stack's first extra account, holding cNGN) whose
 * transfers the bench signs ahead, nonce after nonce, so the floor signs nothing.
 */
export class FloorSender {
  readonly account = anvilAccount(FIRST_EXTRA_ACCOUNT);
  private nonce = 0;

  async start(stack: Stack): Promise<void> {
    this.nonce = await stack.client.getTransactionCount({ address: this.account.address, blockTag: "pending" });
  }

  async next(): Promise<FloorSubmission> {
    const data = encodeFunctionData({ abi: transferAbi, functionName: "transfer", args: [SINK, 1n] });
    const raw = await this.account.signTransaction({
      type: "eip1559",
      chainId: 31337,
      to: cngn,
      data,
      nonce: this.nonce++,
      gas: 100_000n,
      maxFeePerGas: parseGwei("20"),
      maxPriorityFeePerGas: parseGwei("1"),
    });
    return { call: { from: this.account.address, to: cngn, data }, raw };
  }

  async many(count: number): Promise<FloorSubmission[]> {
    const out: FloorSubmission[] = [];
    for (let i = 0; i < count; i++) out.push(await this.next());
    return out;
  }
}

/** A submission to the bare floor as client `asClient` (bench/clients.ts), as the relay's are sent. */
export async function bareSubmit(floorUrl: string, submission: FloorSubmission, asClient: number): Promise<void> {
  const res = await fetch(`${floorUrl}/execute`, {
    method: "POST",
    headers: { "content-type": "application/json", ...clientHeaders(asClient) },
    body: JSON.stringify(submission),
  });
  const text = await res.text();
  if (res.status !== 202) throw new Error(`the floor answered ${res.status} ${text.slice(0, 200)}`);
}
