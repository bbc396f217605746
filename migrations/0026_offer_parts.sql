-- A bid that fills a part of its rfq's sell amount, one leg of a fill of several makers (docs/legs.md):
-- the part it sells; NULL for a bid of the whole.
ALTER TABLE offers ADD COLUMN sell_amount TEXT;
