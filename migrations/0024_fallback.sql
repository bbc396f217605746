-- A faded winner's quote filled by the next offer (docs/settlement.md, "When the winner fades"): each offer keeps
-- what its bid leaves the recipient (`received`, null for an offer stored before), so the keeper picks the next one
-- that meets the signed minimum; the timeline names the `fallback`. SQLite cannot change a CHECK in place, so the
-- timeline's table is made again with the new event, its rows and ids kept.
ALTER TABLE offers ADD COLUMN received TEXT;

PRAGMA defer_foreign_keys = true;
CREATE TABLE timeline_events_new (
  id        INTEGER PRIMARY KEY AUTOINCREMENT,
  quote_id  TEXT NOT NULL REFERENCES quotes (quote_id),
  at        TEXT NOT NULL,
  event     TEXT NOT NULL CHECK (event IN ('requested','quoted','signed','submitted','requote','fallback','failed','settled','final','expired')),
  detail    TEXT             -- JSON object, or NULL
);
INSERT INTO timeline_events_new (id, quote_id, at, event, detail) SELECT id, quote_id, at, event, detail FROM timeline_events;
DROP TABLE timeline_events;
ALTER TABLE timeline_events_new RENAME TO timeline_events;
CREATE INDEX timeline_by_quote ON timeline_events (quote_id, id);
