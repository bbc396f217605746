-- The indexer moves a limit order with its fill's quote in the same batch (src/db/limit-moves.ts,
-- `limitFillSettled`, `limitFillFailed`): it finds the order by its quote.
CREATE INDEX limit_orders_by_quote ON limit_orders (quote_id) WHERE quote_id IS NOT NULL;
