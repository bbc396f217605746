import { z } from "zod";
import { DECLINE_REASONS } from "./decline-reasons";

/**
 * The resolver WebSocket protocol (docs/resolver-protocol.md): JSON text frames, each with a `type`.
 * Amounts are decimal strings in base units; times are unix milliseconds unless named `deadline`
 * (unix seconds, as the contracts see it).
 */

const amount = z.string().regex(/^(0|[1-9]\d*)$/);
const hex = z.string().regex(/^0x[0-9a-fA-F]*$/);
const nodeState = z.enum(["quoting", "degraded", "paused"]);

export const bandFrameBody = z.object({
  base: z.string(),
  quote: z.string(),
  mid: z.number(),
  low: z.number(),
  high: z.number(),
  sources: z.number(),
  at: z.number(),
});

// Node → relay

/**
 * Who holds a node's key (docs/resolver-protocol.md, "Authentication"): a key file on the node, or one of two
 * key-custody services, AWS KMS and Fireblocks.
 */
export const SIGNER_TYPES = ["keyfile", "aws-kms", "fireblocks"] as const;
export type SignerType = (typeof SIGNER_TYPES)[number];
/** A stored signer type as the protocol names it; null for none, or one it no longer names. */
export const signerTypeOf = (value: string | null | undefined): SignerType | null =>
  (SIGNER_TYPES as readonly string[]).includes(value ?? "") ? (value as SignerType) : null;

export const authFrame = z.object({
  type: z.literal("auth"),
  address: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  /** EIP-191 signature over `relay-node-auth|<corridor>|<nonce>`. */
  signature: hex.describe(
    "EIP-191 (personal_sign) signature by `address` over the text `relay-node-auth|<corridor>|<nonce>`, corridor and nonce as the challenge gave them",
  ),
  name: z.string().min(1).max(64),
  version: z.string().min(1).max(32),
  region: z.string().max(32).nullish(),
  signerType: z.enum(SIGNER_TYPES, { message: `signerType must be one of ${SIGNER_TYPES.join(", ")}` }).nullish(),
  /** Optional proof of a Solana key: ed25519 signature (base58) over the same text. */
  solana: z
    .object({ address: z.string().min(32).max(44), signature: z.string().min(64).max(100) })
    .optional()
    .describe("Proof of a Solana key: its base58 address and its ed25519 signature (base58) over the auth text"),
});

export const inventoryEntry = z.object({
  chainId: z.number().int(),
  token: z.string().min(1).max(64),
  balance: amount,
  allowance: amount,
});

export const heartbeatFrame = z.object({
  type: z.literal("heartbeat"),
  state: nodeState,
  degraded: z.string().max(200).nullish(),
  inventory: z.array(inventoryEntry).max(200),
  chains: z
    .array(z.object({ chainId: z.number().int(), state: nodeState, degraded: z.string().max(200).nullish() }))
    .max(50)
    .optional(),
});

export const bidFrame = z.object({
  type: z.literal("bid"),
  rfqId: z.string(),
  outputAmount: amount.describe("How much of the buy token the node delivers for `sellAmount`, in base units"),
  /** Signature over the rfq's `toSign` with `outputAmount` filled in. */
  signature: z
    .string()
    .min(1)
    .max(200)
    .describe(
      "EVM: the node's EIP-712 signature (0x, 65 bytes) over `toSign` with `outputAmount` filled in; Solana: the ed25519 signature (base58) of its proved key over the `toSign` text with `{outputAmount}` replaced",
    ),
  expiresAt: z
    .number()
    .optional()
    .describe(
      "Optional. Unix milliseconds after which the node no longer stands by the price. The relay reads it once, as the bid arrives: a bid whose `expiresAt` is at or before that moment is rejected `expired_bid`; a bid that arrives before it is held like any other to the end of its auction and, if it wins, to the rfq's `deadline`.",
    ),
});

export const declineFrame = z.object({
  type: z.literal("decline"),
  rfqId: z.string(),
  reason: z
    .string()
    .max(200)
    .describe(
      `Free text up to 200 characters; the relay records the decline but not its reason. Known reasons: ${Object.keys(DECLINE_REASONS).join(", ")}`,
    ),
});

/** The winner's answer to `sign`: its signature over the `transaction` it was sent. */
export const signedFrame = z.object({
  type: z.literal("signed"),
  rfqId: z.string(),
  signature: z.string(),
});

/** Most rungs a `levels` ladder may hold, and the longest (and default) life of one (DESIGN §11). */
export const MAX_LADDER_RUNGS = 20;
export const MAX_LEVELS_TTL_MS = 10_000;

/**
 * An indicative price ladder for one direction of the corridor (docs/resolver-protocol.md, "Price
 * ladders"): what the node would pay for each `sellAmount`, `sellAmount` increasing and the rate never
 * better for a larger amount by a base unit of rounding (src/levels/ladder.ts, `checkLadder`); each amount
 * at most 78 digits. It replaces the node's last ladder for that direction and lapses after `ttlMs`.
 */
export const levelsFrame = z.object({
  type: z.literal("levels"),
  chainId: z.number().int(),
  sellToken: z.string().min(1).max(64),
  buyToken: z.string().min(1).max(64),
  levels: z
    .array(z.object({ sellAmount: amount.max(78), outputAmount: amount.max(78) }))
    .min(1)
    .max(MAX_LADDER_RUNGS),
  ttlMs: z.number().int().positive().max(MAX_LEVELS_TTL_MS).optional(),
});

/**
 * Keep-alive (docs/resolver-protocol.md, "Keep-alive"), answered `pong` at any time, before auth too: the
 * runtime answers the exact bytes `{"type":"ping"}` without waking the corridor, the corridor any other
 * spelling of the same JSON.
 */
export const pingFrame = z.object({ type: z.literal("ping") });
export const PING_BYTES = '{"type":"ping"}';

export const nodeFrame = z.discriminatedUnion("type", [
  pingFrame,
  authFrame,
  heartbeatFrame,
  bidFrame,
  declineFrame,
  signedFrame,
  levelsFrame,
]);

export type NodeFrame = z.infer<typeof nodeFrame>;
export type AuthFrame = z.infer<typeof authFrame>;
export type HeartbeatFrame = z.infer<typeof heartbeatFrame>;
export type BidFrame = z.infer<typeof bidFrame>;
export type DeclineFrame = z.infer<typeof declineFrame>;
export type SignedFrame = z.infer<typeof signedFrame>;
export type LevelsFrame = z.infer<typeof levelsFrame>;
export type InventoryEntry = z.infer<typeof inventoryEntry>;
export type NodeState = z.infer<typeof nodeState>;

// Relay → node

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
      "`relay-solana-bid|<corridor>|<rfqId>|<quoteId>|{outputAmount}|<deadline>`: replace `{outputAmount}` with the bid's and sign the UTF-8 bytes",
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

/** Limits of DESIGN §4. */
export const MAX_FRAME_BYTES = 64 * 1024;
export const MAX_FRAMES_PER_SECOND = 50;
export const AUTH_TIMEOUT_MS = 5_000;
/** How long an auction's winner has to answer `sign` before the next bid is asked. */
export const SIGN_TIMEOUT_MS = 500;
export const STALE_AFTER_MS = 35_000;
export const HEARTBEAT_EVERY_MS = 10_000;

/** The text a node signs to authenticate on a corridor. */
export const authMessage = (corridor: string, nonce: string) => `relay-node-auth|${corridor}|${nonce}`;

/** WebSocket close codes and reasons. */
export const CLOSE_POLICY = 1008;
export const CLOSE_REASONS = {
  badSignature: "bad_signature",
  notRegistered: "not_registered",
  timeout: "timeout",
  frameTooLarge: "frame_too_large",
  rateLimited: "rate_limited",
  badFrame: "bad_frame",
} as const;
