import { decodeBase64, equalBytes, isEmptySlot, readWire, readWireBase64, signsMessage, slotBytes } from "./wire";

/** Why a taker's Solana transaction is refused (400 `bad_transaction`). */
export type TakerTransactionRefusal =
  /** Not base64 (strict: standard alphabet, padded). */
  | "not_base64"
  /** Base64, but not a serialized transaction (and not the quote's length). */
  | "not_a_transaction"
  /** A transaction whose message is not the quote's, byte for byte (any changed, added or missing byte). */
  | "message_changed"
  /** A signature slot other than the taker's differs from the quote's (the resolver's, or the keeper's filled in). */
  | "signature_changed"
  /** The taker's slot is empty. */
  | "taker_signature_missing"
  /** The taker's slot holds something that is not the taker's signature over the message. */
  | "taker_signature_invalid";

export type TakerTransactionCheck =
  | { ok: true; transaction: Uint8Array }
  | { ok: false; reason: TakerTransactionRefusal };

/**
 * Whether `submittedBase64` is the quote's transaction (`quoteTransactionBase64`: the resolver's
 * signature in place, the taker's and the keeper's slots empty) signed by `taker` and changed in
 * nothing else: the same bytes everywhere but the taker's signature slot, which holds a valid ed25519
 * signature by the taker over the message. On success, the submitted bytes, for the keeper to add its
 * own signature. Throws when the quote's own transaction cannot be read or does not name the taker as
 * a signer: that is the relay's fault, not the taker's.
 */
export function checkTakerTransaction(
  quoteTransactionBase64: string,
  submittedBase64: string,
  taker: string,
): TakerTransactionCheck {
  const quote = readWireBase64(quoteTransactionBase64);
  if (!quote) throw new Error("the quote's transaction cannot be read");
  const takerSlot = quote.signers.indexOf(taker);
  if (takerSlot < 0) throw new Error("the taker is not a signer of the quote's transaction");

  const bytes = decodeBase64(submittedBase64);
  if (!bytes) return { ok: false, reason: "not_base64" };
  // Another length is another transaction, or none.
  if (bytes.length !== quote.bytes.length) {
    return { ok: false, reason: readWire(bytes) ? "message_changed" : "not_a_transaction" };
  }
  // The same length: the quote's layout, so its count and message must be the quote's bytes.
  const count = (w: Uint8Array) => w.subarray(0, quote.slotsOffset);
  const message = (w: Uint8Array) => w.subarray(quote.messageOffset);
  if (!equalBytes(count(bytes), count(quote.bytes)) || !equalBytes(message(bytes), message(quote.bytes))) {
    return { ok: false, reason: "message_changed" };
  }
  const submitted = { ...quote, bytes };
  for (let i = 0; i < quote.signers.length; i++) {
    if (i !== takerSlot && !equalBytes(slotBytes(submitted, i), slotBytes(quote, i))) {
      return { ok: false, reason: "signature_changed" };
    }
  }
  const signature = slotBytes(submitted, takerSlot);
  if (isEmptySlot(signature)) return { ok: false, reason: "taker_signature_missing" };
  if (!signsMessage(submitted, taker, signature)) return { ok: false, reason: "taker_signature_invalid" };
  return { ok: true, transaction: submitted.bytes };
}
