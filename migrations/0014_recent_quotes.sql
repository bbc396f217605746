-- Every quote, newest first (docs/api.md, "Lists of quotes"): the explorer's recent activity, each page
-- read from this index in order from the cursor's position.
CREATE INDEX quotes_by_time ON quotes (quoted_at, quote_id);
