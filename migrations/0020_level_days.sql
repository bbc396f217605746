-- Honest levels as day histograms (docs/reliability.md, "Honest levels"): per resolver, corridor and UTC day
-- (YYYY-MM-DD), how many samples fell in each slippage bucket, by the bucket's upper bound in bps (0 takes a
-- bid at or better than its ladder, 10000 a node that delivered nothing of what its ladder covered). The
-- table grows with resolvers, corridors and days, not with bids as level_samples (0019) did; days past the
-- 7-day window are pruned.
CREATE TABLE level_days (
  resolver TEXT NOT NULL,
  corridor TEXT NOT NULL,
  day TEXT NOT NULL,
  bucket_bps INTEGER NOT NULL,
  samples INTEGER NOT NULL,
  PRIMARY KEY (resolver, day, corridor, bucket_bps)
) WITHOUT ROWID;

CREATE INDEX level_days_by_day ON level_days (day);

-- The samples level_samples holds are counted into their days' buckets (the buckets of
-- src/levels/honesty.ts, SLIPPAGE_BUCKETS_BPS); it recorded no corridor, so they count under ''.
INSERT INTO level_days (resolver, corridor, day, bucket_bps, samples)
SELECT resolver, '', strftime('%Y-%m-%d', at / 1000, 'unixepoch'),
  CASE
    WHEN slippage_bps <= 0 THEN 0
    WHEN slippage_bps <= 1 THEN 1
    WHEN slippage_bps <= 2 THEN 2
    WHEN slippage_bps <= 5 THEN 5
    WHEN slippage_bps <= 10 THEN 10
    WHEN slippage_bps <= 20 THEN 20
    WHEN slippage_bps <= 50 THEN 50
    WHEN slippage_bps <= 100 THEN 100
    WHEN slippage_bps <= 200 THEN 200
    WHEN slippage_bps <= 500 THEN 500
    WHEN slippage_bps <= 1000 THEN 1000
    WHEN slippage_bps <= 2000 THEN 2000
    WHEN slippage_bps <= 5000 THEN 5000
    ELSE 10000
  END,
  COUNT(*)
FROM level_samples
GROUP BY 1, 2, 3, 4;

DROP TABLE level_samples;
