-- Limit orders (docs/limit-orders.md): what the keeper's limit job needs besides the columns of 0001.
--   corridor        the canonical corridor key (src/corridors.ts) the order's auctions run on
--   fee_token       the protocol fee's token (the buy token), NULL when the chain's fee is 0
--   fee_bps         the fee in basis points when the order was placed
--   fee_at_limit    the fee at the limit price (limit_amount × fee_bps / 10000)
--   gas_fee_now     the chain's gas fee when the order was placed; max_gas_fee is three times it
--   typed_data      JSON: the Permit2 typed data the taker signed, as prepare returned it
--   erc2612         JSON {value, deadline, v, r, s}: the taker's EIP-2612 approval of Permit2, or NULL
--   revoke          JSON {permit2, to, wordPos, mask, data}: the call that invalidates the order's nonce
-- `taker` is stored as the chain keys addresses (EVM: lowercase), `nonce` and `deadline` as decimal text.

ALTER TABLE limit_orders ADD COLUMN corridor TEXT NOT NULL DEFAULT '';
ALTER TABLE limit_orders ADD COLUMN fee_token TEXT;
ALTER TABLE limit_orders ADD COLUMN fee_bps INTEGER NOT NULL DEFAULT 0;
ALTER TABLE limit_orders ADD COLUMN fee_at_limit TEXT NOT NULL DEFAULT '0';
ALTER TABLE limit_orders ADD COLUMN gas_fee_now TEXT NOT NULL DEFAULT '0';
ALTER TABLE limit_orders ADD COLUMN typed_data TEXT NOT NULL DEFAULT '{}';
ALTER TABLE limit_orders ADD COLUMN erc2612 TEXT;
ALTER TABLE limit_orders ADD COLUMN revoke TEXT NOT NULL DEFAULT '{}';

-- A taker's orders newest first, all of them or of one status; and its active orders counted.
DROP INDEX limit_orders_by_taker;
CREATE INDEX limit_orders_by_taker ON limit_orders (taker, chain_id, created_at, limit_order_id);
CREATE INDEX limit_orders_by_taker_status ON limit_orders (taker, status, chain_id, created_at, limit_order_id);

-- The keeper's batch of open orders due for an auction, least recently checked first.
CREATE INDEX limit_orders_due ON limit_orders (last_checked_at, created_at) WHERE status = 'open';
