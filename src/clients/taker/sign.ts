import { type Address, getAddress, type Hex, type LocalAccount } from "viem";
import { z } from "zod";
import { type CompletedTypedData, typedDataFromJson } from "../../chains/evm/json-typed-data";
import { quoteIdToBytes32 } from "../../chains/evm/typed-data";
import type { SignableQuote } from "./relay";

const jsonTypedData = z.object({
  domain: z.record(z.string(), z.unknown()),
  types: z.record(z.string(), z.array(z.object({ name: z.string(), type: z.string() }))),
  primaryType: z.string(),
  message: z.record(z.string(), z.unknown()),
});

export class QuoteMismatchError extends Error {
  override readonly name = "QuoteMismatchError";
}

/**
 * A quote's `typedData` (JSON: integers as decimal strings, `EIP712Domain` in `types`) ready for viem,
 * after checking it says what the quote record says: a taker signs what it was shown, or nothing.
 */
export function quoteTypedData(quote: SignableQuote): CompletedTypedData {
  const parsed = jsonTypedData.safeParse(quote.typedData);
  if (!parsed.success) throw new QuoteMismatchError(`quote ${quote.quoteId}: typedData is not EIP-712 typed data`);
  const typed = typedDataFromJson(parsed.data);
  const mismatch = typedDataMismatch(quote, typed);
  if (mismatch) throw new QuoteMismatchError(`quote ${quote.quoteId}: typedData ${mismatch}`);
  return typed;
}

const same = (a: unknown, b: string) => typeof a === "string" && a.toLowerCase() === b.toLowerCase();

/** The first field where the Permit2 message differs from the quote record, or null. */
function typedDataMismatch(quote: SignableQuote, typed: CompletedTypedData): string | null {
  if (typed.primaryType !== "PermitWitnessTransferFrom") return `signs a ${typed.primaryType}, not a Permit2 transfer`;
  if (typed.domain.chainId !== quote.chainId) return `is for chain ${typed.domain.chainId}`;
  const message = typed.message as {
    permitted?: { token?: unknown; amount?: unknown };
    witness?: Record<string, unknown>;
  };
  const witness = message.witness ?? {};
  const checks: [string, boolean][] = [
    ["permitted.token", same(message.permitted?.token, quote.sellToken)],
    ["permitted.amount", message.permitted?.amount === BigInt(quote.takerPays)],
    ["witness.quoteId", same(witness.quoteId, quoteIdToBytes32(quote.quoteId))],
    ["witness.recipient", same(witness.recipient, quote.recipient)],
    ["witness.buyToken", same(witness.buyToken, quote.buyToken)],
    // The witness binds the least the recipient gets, not who pays it (docs/settlement.md, "When the winner fades").
    ["witness.minReceived", witness.minReceived === BigInt(quote.minReceived)],
    ["types.RfqOrder", !(typed.types.RfqOrder ?? []).some((f) => f.name === "resolver")],
  ];
  const bad = checks.find(([, ok]) => !ok);
  return bad ? `${bad[0]} differs from the quote` : null;
}

/** The taker's signature over the quote's Permit2 typed data (what a wallet's eth_signTypedData_v4 gives). */
export async function signQuote(account: LocalAccount, quote: SignableQuote): Promise<Hex> {
  return account.signTypedData(quoteTypedData(quote));
}

/** The Permit2 contract the quote's typed data names (its EIP-712 domain's verifying contract). */
export function quotePermit2(quote: SignableQuote): Address {
  const contract = quoteTypedData(quote).domain.verifyingContract;
  if (!contract) throw new QuoteMismatchError(`quote ${quote.quoteId}: typedData names no Permit2 contract`);
  return getAddress(contract);
}
