-- Lists of quotes (docs/api.md, "Lists of quotes"): a taker's, newest first, and a resolver's wins, each
-- page read from its index in order, from the cursor's position on, without a sort.
DROP INDEX IF EXISTS quotes_taker;
CREATE INDEX quotes_by_taker ON quotes (taker, quoted_at, quote_id);
-- A resolver's identity is an EVM address, compared without case.
CREATE INDEX quotes_by_resolver ON quotes (lower(resolver), quoted_at, quote_id);
