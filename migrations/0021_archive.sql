-- The archive (docs/operations.md, "Archive"): ended quotes older than D1 keeps them whole (the
-- configuration's `retention`) are written to R2 (binding ARCHIVE) with their offers, timeline, executions
-- and fills, a batch to an object, before D1 deletes them. A batch is planned here first, in one atomic
-- statement batch with the ids it holds; then its object is put; then its rows are deleted and it is marked
-- archived, in one atomic statement batch. A run that stopped between the steps finishes the batch as
-- planned, under the same object key, so no record is lost and none is written twice.
--   kind        unsubmitted or submitted (migrations/0015): whose window it left D1 by
--   object_key  its R2 object: archive/<corridor tag>/<UTC day it ended>/<batch>.jsonl
--   ended_to    the latest `updated_at` of its quotes: every list is complete after the latest of these
--   state       0 planned, 1 archived (its rows left D1), 2 its ids left archived_ids too
CREATE TABLE archive_batches (
  batch       INTEGER PRIMARY KEY,
  kind        TEXT NOT NULL CHECK (kind IN ('unsubmitted', 'submitted')),
  object_key  TEXT NOT NULL,
  ended_to    TEXT NOT NULL,
  state       INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX archive_batches_planned ON archive_batches (batch) WHERE state = 0;
CREATE INDEX archive_batches_by_end ON archive_batches (kind, ended_to);
CREATE INDEX archive_batches_indexed ON archive_batches (kind, ended_to) WHERE state = 1;

-- Which batch holds each archived quote and execution, so `GET /v1/quotes/{id}` and `GET
-- /v1/executions/{id}` find its object. An id is kept as the 16 bytes its hex spells (without the `q_` or
-- `x_`), about 1 % of the bytes of the quote it stands for. The ids of a never-submitted quote's batch
-- leave after `retention.unfilledDays`, found by their batch.
CREATE TABLE archived_ids (
  id     BLOB PRIMARY KEY,
  batch  INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX archived_ids_by_batch ON archived_ids (batch);
