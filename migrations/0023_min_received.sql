-- The taker's tolerance and the least its recipient may get (docs/settlement.md, "When the winner fades"): the
-- taker signs `min_received`, not who pays it. A quote stored before has none: its minimum was `received`.
ALTER TABLE quotes ADD COLUMN slippage_bps INTEGER NOT NULL DEFAULT 0;
ALTER TABLE quotes ADD COLUMN min_received TEXT;
