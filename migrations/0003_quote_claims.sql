-- A submission and a cancel of the same quote are serialised (docs/settlement.md, "Cancel and submit"):
-- the keeper claims an open quote right before it signs a fill of it, a cancel needs an unclaimed quote,
-- and a claim whose fill is refused (nothing moved) is released. ISO 8601, or NULL when unclaimed.
ALTER TABLE quotes ADD COLUMN claimed_at TEXT;
