import { z } from "zod";
import { DECLINE_REASONS } from "./decline-reasons";
import { MAX_LADDER_RUNGS, MAX_LEVELS_TTL_MS } from "./frame-limits";
import { amount, hex } from "./wire-values";

/**
 * The frames a node sends the relay (docs/resolver-protocol.md): JSON text, each with a `type`. Amounts
 * are decimal strings in base units; times are unix milliseconds unless named `deadline` (unix seconds).
 */

const nodeState = z.enum(["quoting", "degraded", "paused"]);

/**
 * Who holds a node's key (docs/resolver-protocol.md, "Authentication"): a key file on the node, or one of two
 * key-custody services, AWS KMS and Fireblocks.
 */
export const SIGNER_TYPES = ["keyfile", "aws-kms", "fireblocks"] as const;
export type SignerType = (typeof SIGNER_TYPES)[number];
/** A stored signer type as the protocol names it; null for none, or one it no longer names. */
export const signerTypeOf = (value: string | null | undefined): SignerType | null =>
  (SIGNER_TYPES as readonly string[]).includes(value ?? "") ? (value as SignerType) : null;

/** The text a node signs to authenticate on a corridor. */
export const authMessage = (corridor: string, nonce: string) => `relay-node-auth|${corridor}|${nonce}`;

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
  sellAmount: amount
    .optional()
    .describe(
      "Optional: the part of the rfq's `sellAmount` this bid fills, one leg of a fill of several makers (docs/legs.md): less than the rfq's and at least the sold token's `minLegSellAmount` (`GET /v1/config`), signed in place of the rfq's `sellAmount` (EVM), or appended to the bid text as `|<sellAmount>` (Solana). Absent, or the rfq's own: the whole",
    ),
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
