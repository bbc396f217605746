import { z } from "@hono/zod-openapi";
import { Amount, Uint256 } from "./common";
import { ExecutionStatus } from "./quote";

/** Longest Idempotency-Key accepted (docs/settlement.md, "Idempotency-Key"). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 128;

const bytes32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be 32 bytes of 0x hex");

export const Erc2612Permit = z
  .object({
    value: Uint256,
    deadline: z
      .union([z.number().int().nonnegative(), Amount])
      .transform((v) => String(v))
      .pipe(Uint256)
      .openapi({ type: "string", description: "unix seconds" }),
    v: z.number().int().min(0).max(255),
    r: bytes32,
    s: bytes32,
  })
  .openapi("Erc2612Permit", { description: "An EIP-2612 permit of the sell token for Permit2" });

/** An EIP-2612 approval of Permit2 the taker sends along when the sell token has none yet. */
export type Erc2612Permit = z.infer<typeof Erc2612Permit>;

const quoteId = z.string().min(1).max(64);
const chainId = z.number().int().positive().optional().openapi({ description: "must be the quote's chain when given" });

const EvmExecutionRequest = z
  .object({
    quoteId,
    chainId,
    signature: z
      .string()
      .regex(/^0x[0-9a-fA-F]{130}$/, "must be a 65-byte 0x hex signature")
      .openapi({ description: "the taker's eth_signTypedData_v4 signature over the quote's typedData" }),
    permit: Erc2612Permit.optional(),
    minReceived: Amount.optional().openapi({
      description:
        "the `minReceived` of the witness the taker signed; when given and not the quote's, 400 `invalid_request` naming it, and nothing is recorded",
    }),
  })
  .openapi("EvmExecutionRequest");

const SolanaExecutionRequest = z
  .object({
    quoteId,
    chainId,
    transaction: z.string().min(1).max(4096).openapi({ description: "the taker's signed transaction, base64" }),
  })
  .openapi("SolanaExecutionRequest");

export const ExecutionRequest = z.union([EvmExecutionRequest, SolanaExecutionRequest]);

export const ExecutionAnswer = z
  .object({
    quoteId: z.string(),
    executionId: z.string(),
    status: ExecutionStatus,
    txHash: z.string().nullable().optional(),
    reason: z.string().nullable().optional(),
    duplicate: z.literal(true).optional(),
  })
  .openapi("ExecutionAnswer");

/** What `POST /v1/executions` answers when it is not an error. */
export type ExecutionAnswer = z.infer<typeof ExecutionAnswer>;
