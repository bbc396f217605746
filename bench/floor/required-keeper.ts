import { DurableObject } from "cloudflare:workers";
import { type Address, getAddress, type Hex, keccak256, parseGwei, toHex } from "viem";
import { type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { quantityOf, rpcBatch } from "../../src/chains/evm/call-batch";
import { fillGasLimit } from "../../src/chains/evm/settler-gas";
import { takerDigest } from "../../src/chains/evm/settler-taker";
import { fillCall } from "../../src/chains/evm/stored-signing";
import { walletSignatureRequests, walletVerdict } from "../../src/chains/evm/wallet-signature";
import type { FillRequest } from "../../src/chains/settler";
import type { FloorSubmitted } from "./protocol";

export interface RequiredKeeperEnv {
  /** The chain's JSON-RPC endpoint and contracts, and the gas an RFQ fill is configured to use. */
  RPC_URL: string;
  CHAIN_ID: string;
  EXECUTOR: string;
  PERMIT2: string;
  RFQ_GAS_UNITS: string;
  /** A wallet the executor lets fill (the bench allows it). */
  KEEPER_KEY: string;
}

/** What a refused submission is answered (400), as the relay's keeper refuses it. */
export interface RequiredRefusal {
  error: "bad_signature" | "requote";
  reason: string;
}

/**
 * The required-work floor's keeper (bench/README.md, "The floor"): what the spec requires of a
 * submission before its answer, with the relay's own code for each, and nothing else. The taker's
 * signature is checked as Permit2 will check it (`takerDigest`, `walletVerdict`: the taker's code and
 * its `isValidSignature` read in the batch of the simulation), the real executor fill is simulated at its
 * gas limit from the keeper's wallet (`fillCall`, `fillGasLimit`), signed, kept in the object's SQLite,
 * and broadcast. One object for every submission; the nonce is read once and kept in memory, the fees
 * are fixed (the relay keeps both in memory too). It follows nothing to the chain afterwards.
 */
export class RequiredKeeper extends DurableObject<RequiredKeeperEnv> {
  private readonly account: PrivateKeyAccount;
  private nonce: Promise<number> | null = null;
  private taken = 0;

  constructor(ctx: DurableObjectState, env: RequiredKeeperEnv) {
    super(ctx, env);
    this.account = privateKeyToAccount(env.KEEPER_KEY as Hex);
    ctx.storage.sql.exec(
      "CREATE TABLE IF NOT EXISTS signed (hash TEXT PRIMARY KEY, nonce INTEGER NOT NULL, raw TEXT NOT NULL, request TEXT NOT NULL)",
    );
  }

  async submit(request: FillRequest): Promise<FloorSubmitted | RequiredRefusal> {
    const { env } = this;
    const executor = getAddress(env.EXECUTOR);
    const permit2 = getAddress(env.PERMIT2);
    const chainId = Number(env.CHAIN_ID);
    const signer = getAddress(request.taker);
    const hash = takerDigest({ chainId, executor, permit2, reactor: executor }, request);
    const call = fillCall(executor, request);
    const units = Number(env.RFQ_GAS_UNITS);
    const gas = fillGasLimit({ rfq: units, limit: units, permit: units }, request.signing);
    const simulated = { from: this.account.address, to: call.to, data: call.data, gas: toHex(gas) };
    const answers = await rpcBatch(env.RPC_URL, "checking the fill", [
      ...walletSignatureRequests({ signer, hash, signature: request.signature, verifier: permit2 }),
      { method: "eth_call", params: [simulated, "latest"] },
    ]);
    const verdict = walletVerdict(answers.slice(0, 2), { signer, hash, signature: request.signature });
    if (!verdict.ok) return { error: "bad_signature", reason: JSON.stringify(verdict) };
    const simulation = answers[2];
    if (!simulation?.ok) return { error: "requote", reason: simulation?.error ?? "no answer" };
    const nonce = (await this.firstNonce()) + this.taken++;
    const raw = await this.account.signTransaction({
      chainId,
      nonce,
      gas,
      to: call.to as Address,
      data: call.data as Hex,
      value: 0n,
      type: "eip1559",
      maxFeePerGas: parseGwei("20"),
      maxPriorityFeePerGas: parseGwei("1"),
    });
    const txHash = keccak256(raw);
    this.ctx.storage.sql.exec("INSERT INTO signed VALUES (?, ?, ?, ?)", txHash, nonce, raw, JSON.stringify(request));
    const [sent] = await rpcBatch(env.RPC_URL, "broadcasting", [{ method: "eth_sendRawTransaction", params: [raw] }]);
    if (!sent?.ok) throw new Error(`broadcasting: ${sent?.error ?? "no answer"}`);
    return { txHash };
  }

  /** The wallet's next nonce when this object first signed: read once. */
  private firstNonce(): Promise<number> {
    this.nonce ??= rpcBatch(this.env.RPC_URL, "reading the nonce", [
      { method: "eth_getTransactionCount", params: [this.account.address, "pending"] },
    ]).then((answers) => Number(quantityOf(answers[0], "the nonce")));
    return this.nonce;
  }
}
