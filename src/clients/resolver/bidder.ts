import type { LocalAccount } from "viem";
import { completeToSign } from "../../chains/evm/json-typed-data";
import { typedDataDigest } from "../../chains/evm/typed-data-digest";
import type { DeclineFrame } from "../../protocol/node-frames";
import type { BidCommitment, RfqFrame } from "../../protocol/relay-frames";
import type { Band } from "../../schemas/quote";
import { bidTextMismatch, completeBidText, toSignMismatch } from "./check-rfq";
import { asError, type Emit, type Reply } from "./events";
import type { Heartbeats } from "./heartbeats";
import type { SolanaSigner } from "./keys";
import type { NodeStates } from "./node-state";
import type { OpenQuotes } from "./open-quotes";
import { availableInventory, type Pricer, sameToken, type TokenInfo } from "./pricing";
import type { ChainInfo } from "./relay-config";

/** A fixed reply delay, or one drawn uniformly from a range, in milliseconds. */
export type Latency = number | { min: number; max: number };

export interface BidderOptions {
  /** Signs EVM bids. */
  account: LocalAccount;
  /** Signs Solana bids; without it, Solana rfqs are declined `no_solana_key`. */
  solana?: SolanaSigner | null;
  chains: readonly ChainInfo[];
  pricer: Pricer;
  latencyMs?: Latency;
  /** Share of rfqs declined outright (`random_decline`), 0 to 1. */
  declineRate?: number;
  random: () => number;
  states: NodeStates;
  emit: Emit;
}

/** What the bidder needs of the corridor an rfq came on. */
export interface RfqCorridor {
  readonly key: string;
  /** The latest band the corridor sent, for an rfq that carries none. */
  readonly band: Band | null;
  /** The inventory of the last heartbeat. */
  readonly heartbeats: Pick<Heartbeats, "inventory" | "inventoryRead" | "queue" | "readAt">;
  /** What the node's open quotes on the corridor hold of that inventory. */
  readonly openQuotes: Pick<OpenQuotes, "free">;
}

/**
 * What the node answers an rfq: a signed bid for what its pricer gives, or a decline with the reason of
 * the first check that fails, in the order docs/reference-resolver.md ("Answering an rfq") lists them.
 */
export class Bidder {
  constructor(private readonly options: BidderOptions) {
    const declineRate = options.declineRate ?? 0;
    if (!(declineRate >= 0 && declineRate <= 1)) throw new RangeError("declineRate must be between 0 and 1");
    const latency = options.latencyMs ?? 0;
    const [low, high] = typeof latency === "number" ? [latency, latency] : [latency.min, latency.max];
    if (!(low >= 0 && high >= low)) throw new RangeError("latencyMs must be a non-negative number or range");
  }

  async decide(corridor: RfqCorridor, rfq: RfqFrame): Promise<Reply> {
    const decline = (reason: string): DeclineFrame => ({ type: "decline", rfqId: rfq.rfqId, reason });
    const { declineRate = 0, random, states, solana } = this.options;
    if (declineRate > 0 && random() < declineRate) return decline("random_decline");
    const stateDecline = states.declineReason(rfq.chainId);
    if (stateDecline) return decline(stateDecline);
    const chain = this.options.chains.find((ch) => ch.chainId === rfq.chainId);
    // EVM bids sign EIP-712 fills; Solana bids an ed25519 price commitment, and later the swap itself.
    const { toSign } = rfq;
    if (!chain || chain.kind !== (toSign.scheme === "eip712" ? "evm" : "solana")) return decline("unsupported_chain");
    if (toSign.scheme === "ed25519" && !solana) return decline("no_solana_key");
    const sellToken = findToken(chain, rfq.sellToken);
    const buyToken = findToken(chain, rfq.buyToken);
    if (!sellToken || !buyToken) return decline("unknown_token");
    const mismatch =
      toSign.scheme === "eip712" ? toSignMismatch(rfq, toSign, chain) : bidTextMismatch(rfq, toSign.text, corridor.key);
    if (mismatch) return decline(`to_sign_mismatch:${mismatch}`);
    let outputAmount: bigint;
    try {
      const decision = await this.options.pricer({
        chainId: rfq.chainId,
        sellToken,
        buyToken,
        sellAmount: BigInt(rfq.sellAmount),
        band: rfq.band ?? corridor.band,
      });
      if ("decline" in decision) return decline(decision.decline);
      outputAmount = decision.outputAmount;
    } catch (e) {
      this.options.emit("error", { corridor: corridor.key, error: asError(e) });
      return decline("pricing_error");
    }
    if (outputAmount <= 0n) return decline("amount_too_small");
    // An rfq can beat the first inventory read after welcome; judge it by that read, not by nothing.
    const { heartbeats } = corridor;
    if (!heartbeats.inventoryRead) await heartbeats.queue;
    // What this taker's open quotes hold is not for sale to it again (docs/reference-resolver.md, "Open quotes").
    const free = corridor.openQuotes.free(heartbeats.inventory, rfq.taker, Date.now(), heartbeats.readAt);
    const available = availableInventory(free, rfq.chainId, rfq.buyToken);
    let part: { sellAmount: bigint; outputAmount: bigint } | null = null;
    if (available < outputAmount) {
      // What it holds does not cover the whole: a part it does cover, where the rfq takes parts (docs/legs.md).
      part = await this.part(
        rfq,
        chain,
        { sellToken, buyToken, band: rfq.band ?? corridor.band },
        available,
        outputAmount,
      );
      if (!part) return decline("insufficient_inventory");
      outputAmount = part.outputAmount;
    }
    try {
      const signature = await this.signBid(toSign, outputAmount, part?.sellAmount);
      const sold = part ? { sellAmount: part.sellAmount.toString() } : {};
      return { type: "bid", rfqId: rfq.rfqId, outputAmount: outputAmount.toString(), signature, ...sold };
    } catch (e) {
      this.options.emit("error", { corridor: corridor.key, error: asError(e) });
      return decline("cannot_sign");
    }
  }

  /**
   * The largest part of the rfq the node's free inventory covers, priced by its pricer: on a chain whose
   * fills take several makers' legs (`maxLegs` above 1; on Solana with both fees in the buy token), at least the sold token's `minLegSellAmount`
   * and less than the whole; null when there is none (docs/reference-resolver.md, "Parts").
   */
  private async part(
    rfq: RfqFrame,
    chain: ChainInfo,
    pair: { sellToken: TokenInfo; buyToken: TokenInfo; band: RfqFrame["band"] },
    available: bigint,
    wholeOutput: bigint,
  ): Promise<{ sellAmount: bigint; outputAmount: bigint } | null> {
    if ((chain.maxLegs ?? 1) < 2 || rfq.limit || available <= 0n) return null;
    // A part is taken only where both fees come out of the output: on Solana, where the rfq says so.
    if (rfq.toSign.scheme === "ed25519" && (rfq.fee.token !== rfq.buyToken || rfq.gasFee.token !== rfq.buyToken)) {
      return null;
    }
    const whole = BigInt(rfq.sellAmount);
    const sellAmount = (whole * available) / wholeOutput;
    if (sellAmount <= 0n || sellAmount >= whole) return null;
    if (sellAmount < BigInt(pair.sellToken.minLegSellAmount ?? 1)) return null;
    const decision = await Promise.resolve()
      .then(() => this.options.pricer({ chainId: rfq.chainId, ...pair, sellAmount }))
      .catch((): { decline: string } => ({ decline: "pricing_error" }));
    if ("decline" in decision || decision.outputAmount <= 0n || decision.outputAmount > available) return null;
    return { sellAmount, outputAmount: decision.outputAmount };
  }

  /** The artificial delay of one reply, counted from the rfq's arrival. */
  latency(): number {
    const latency = this.options.latencyMs ?? 0;
    if (typeof latency === "number") return latency;
    return latency.min + this.options.random() * (latency.max - latency.min);
  }

  /** The bid's signature over its commitment: EIP-712 by the node's account, or ed25519 by its Solana key. */
  private async signBid(toSign: BidCommitment, outputAmount: bigint, sellAmount?: bigint): Promise<string> {
    if (toSign.scheme === "eip712") {
      const typed = completeToSign(toSign, outputAmount, sellAmount);
      const { account } = this.options;
      // The digest as viem's signTypedData takes it, with the domain's separator kept per domain: a node
      // signs every rfq of a corridor under one domain, at up to hundreds of bids a second.
      return account.sign ? account.sign({ hash: typedDataDigest(typed) }) : account.signTypedData(typed);
    }
    if (!this.options.solana) throw new Error("no Solana key to sign the bid with");
    return this.options.solana.sign(completeBidText(toSign.text, outputAmount, sellAmount));
  }
}

function findToken(chain: ChainInfo, address: string): TokenInfo | undefined {
  return chain.tokens.find((t) => sameToken(t.address, address));
}
