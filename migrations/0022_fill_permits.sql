-- Whether a settled fill carried the taker's EIP-2612 permit (docs/settlement.md, "The gas of each kind of
-- fill"): such a fill also applies the permit, so its gas is kept apart from a plain fill's and each kind of
-- fill is priced from the median of its own. 1 carried one, 0 did not, NULL for fills settled before
-- this was recorded (left out of both medians).
ALTER TABLE executions ADD COLUMN fill_permit INTEGER CHECK (fill_permit IN (0, 1));
