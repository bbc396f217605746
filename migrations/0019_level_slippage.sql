-- Honest levels (docs/reliability.md, "Honest levels"): each firm bid from a node whose fresh price ladder
-- covered the amount when the rfq went out, with how much worse it was than that ladder (bps of the ladder's
-- value, negative when better). The resolver record reads a node's last 7 days; older rows are pruned.
CREATE TABLE level_samples (
  resolver TEXT NOT NULL,
  quote_id TEXT NOT NULL,
  slippage_bps INTEGER NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (resolver, quote_id)
);

CREATE INDEX level_samples_by_resolver ON level_samples (resolver, at);
CREATE INDEX level_samples_by_age ON level_samples (at);
