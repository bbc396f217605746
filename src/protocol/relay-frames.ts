import { z } from "zod";
import { amount } from "./wire-values";

/**
 * The frames the relay sends a node (docs/resolver-protocol.md): JSON text, each with a `type`. Amounts
 * are decimal strings in base units; times are unix milliseconds unless named `deadline` (unix seconds).
 */

export const bandFrameBody = z.object({
  base: z.string(),
  quote: z.string(),
  mid: z.number(),
  low: z.number(),
  high: z.number(),
  sources: z.number(),
  at: z.number(),
});

/**
 * What a bid signs, tagged by signature scheme (docs/resolver-protocol.md, "What a bid signs"):
 * - `eip712`: typed data whose `message.outputAmount` is null for the resolver to fill in;
 * - `ed25519`: a text whose `{outputAmount}` the resolver replaces with its output before signing.
 */
export const eip712Commitment = z.object({
  scheme: z.literal("eip712"),
  domain: z
    .record(z.string(), z.unknown())
    .describe("`{name, version, chainId, verifyingContract}`; `chainId` a number. `types` has no EIP712Domain entry"),
  types: z.record(z.string(), z.array(z.object({ name: z.string(), type: z.string() }))),
  primaryType: z.string().describe("`RfqFill` for an RFQ, `LimitFill` in a limit order's round"),
  message: z
    .record(z.string(), z.unknown())
    .describe("Integers as decimal strings; `outputAmount` null, for the node to fill in with its bid's"),
});

export const ed25519Commitment = z.object({
  scheme: z.literal("ed25519"),
  text: z
    .string()
    .describe(
      "`relay-solana-bid|<corridor>|<rfqId>|<quoteId>|{outputAmount}|<deadline>`: replace `{outputAmount}` with the bid's and sign the UTF-8 bytes; a bid of a part appends `|<sellAmount>`, its part, before signing",
    ),
});

export const bidCommitment = z.discriminatedUnion("scheme", [eip712Commitment, ed25519Commitment]);

/** Where an ed25519 commitment's text takes the bid's output amount. */
export const OUTPUT_AMOUNT_SLOT = "{outputAmount}";

export const challengeFrame = z.object({ type: z.literal("challenge"), nonce: z.string(), corridor: z.string() });

export const welcomeFrame = z.object({
  type: z.literal("welcome"),
  address: z.string(),
  corridor: z.string(),
  rfqWindowMs: z.number(),
  band: bandFrameBody.nullable(),
});

export const rfqFrame = z.object({
  type: z.literal("rfq"),
  rfqId: z.string(),
  quoteId: z.string(),
  chainId: z.number().int(),
  sellToken: z.string(),
  buyToken: z.string(),
  sellAmount: amount,
  taker: z.string(),
  recipient: z.string(),
  /** Unix seconds: the fill must settle before it. */
  deadline: z.number().int().describe("Unix seconds: the fill must settle before it"),
  /** Protocol fee charged in `token`: bps of the output in the buy token, of `sellAmount` in the sell token. */
  fee: z
    .object({ token: z.string(), bps: z.number().int() })
    .describe(
      "The protocol fee: `bps` of the output when `token` is the buy token, of `sellAmount` when the sell token",
    ),
  gasFee: z.object({ token: z.string(), amount }).describe("The keeper's charge for gas, in `token`"),
  band: bandFrameBody.nullable(),
  toSign: bidCommitment,
  /**
   * Present when the rfq is a limit order's round (docs/resolver-protocol.md, "Limit rounds"): the bid
   * commits to fill that order, and wins only if its `outputAmount` is at least `limitAmount` (the
   * taker's price) and the recipient gets at least `minOut`.
   */
  limit: z
    .object({ limitOrderId: z.string(), minOut: amount, limitAmount: amount })
    .optional()
    .describe(
      "Present in a limit order's round: the best bid wins only at `outputAmount` ≥ `limitAmount` and the recipient getting ≥ `minOut`",
    ),
});

export const resultFrame = z.object({
  type: z.literal("result"),
  rfqId: z.string(),
  won: z.boolean(),
  rank: z.number().int().nullable(),
});

export const bandFrame = bandFrameBody.extend({ type: z.literal("band") });

export const executionFrame = z.object({
  type: z.literal("execution"),
  quoteId: z.string(),
  status: z.string(),
  txHash: z.string().nullable(),
});

/**
 * Sent to an auction's winner on chains where the winner signs after the auction (never on EVM): what it
 * signs, answered by `signed` within SIGN_TIMEOUT_MS.
 */
export const signFrame = z.object({ type: z.literal("sign"), rfqId: z.string(), transaction: z.string() });

export const errorFrame = z.object({
  type: z.literal("error"),
  code: z.string(),
  message: z.string(),
  /** The rfq a refused `bid`, `decline` or `signed` answered; absent on errors about the socket itself. */
  rfqId: z
    .string()
    .optional()
    .describe("The rfq whose `bid`, `decline` or `signed` this error is about; absent when it is about the socket"),
});

/** A strike demoted the node (docs/reliability.md): until when (ISO 8601), and why. */
export const demotedFrame = z.object({ type: z.literal("demoted"), until: z.string(), reason: z.string() });

/** The answer to `ping`; the runtime's own is these exact bytes, `{"type":"pong"}`. */
export const pongFrame = z.object({ type: z.literal("pong") });
export const PONG_BYTES = '{"type":"pong"}';

export const relayFrame = z.discriminatedUnion("type", [
  pongFrame,
  challengeFrame,
  welcomeFrame,
  rfqFrame,
  resultFrame,
  bandFrame,
  executionFrame,
  signFrame,
  errorFrame,
  demotedFrame,
]);

export type RelayFrame = z.infer<typeof relayFrame>;
export type RfqFrame = z.infer<typeof rfqFrame>;
export type BidCommitment = z.infer<typeof bidCommitment>;
export type Eip712Commitment = z.infer<typeof eip712Commitment>;
export type WelcomeFrame = z.infer<typeof welcomeFrame>;
