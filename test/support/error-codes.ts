/**
 * Every error code the HTTP API may answer with, as docs/api.md and docs/settlement.md document them.
 * The fuzz suites assert that no other code ever comes back; test/unit/error-codes.test.ts keeps this
 * list and the docs in step.
 */
export const DOCUMENTED_ERROR_CODES = [
  "invalid_request",
  "not_found",
  "method_not_allowed",
  "payload_too_large",
  "upgrade_required",
  "unauthorized",
  "unsupported_pair",
  "below_minimum",
  "bad_taker_proof",
  "no_offers",
  "too_many_rfqs",
  "rate_limited",
  "bad_signature",
  "bad_transaction",
  "taker_not_ready",
  "idempotency_key_too_long",
  "quote_not_found",
  "quote_not_open",
  "quote_expired",
  "wrong_chain",
  "broadcast_failed",
  "not_leader",
  "limit_orders_disabled",
  "limit_orders_unsupported",
  "bad_expiry",
  "limit_below_fees",
  "terms_mismatch",
  "too_many_open",
  "nonce_used",
  "order_filling",
  "order_not_open",
  "chain_unavailable",
] as const;
