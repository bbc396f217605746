-- Writes the corridor objects queued in their own storage and copied here behind (docs/architecture.md,
-- "Write-behind"): the id of each write that reached D1, in the same batch as the write, so a write
-- retried after its batch already landed is recognised and not applied twice. Pruned after a day by the
-- keeper's hourly prune job.
CREATE TABLE written_behind (
  id TEXT PRIMARY KEY,
  written_at TEXT NOT NULL
);
CREATE INDEX written_behind_at ON written_behind (written_at);
