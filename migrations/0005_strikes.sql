-- A resolver's strike record (docs/reliability.md, "Strikes and demotion"): the doubling level of its
-- next demotion, the strikes and clean fills since the record was last cleared, the last strike's time,
-- and the last event applied, so an event written again after a restart is not counted twice.

ALTER TABLE resolvers ADD COLUMN strike_level INTEGER NOT NULL DEFAULT 0;
ALTER TABLE resolvers ADD COLUMN strikes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE resolvers ADD COLUMN clean_fills INTEGER NOT NULL DEFAULT 0;
ALTER TABLE resolvers ADD COLUMN last_strike_at TEXT;
ALTER TABLE resolvers ADD COLUMN last_standing_event TEXT;
