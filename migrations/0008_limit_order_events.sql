-- Each status a limit order takes, in order, for its event stream (docs/api.md, "Event streams"): the
-- stream replays these and resumes after a sequence number, so the history must be kept, not only the
-- record's current status. Written by triggers, so every statement that moves an order (place, cancel,
-- expire, the keeper's fills) records its move in the same statement, and none can forget to.
CREATE TABLE limit_order_events (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  limit_order_id  TEXT NOT NULL,
  at              TEXT NOT NULL,
  status          TEXT NOT NULL,
  -- The record's fields that change as the order moves, as they were after the move (JSON).
  data            TEXT NOT NULL
);
CREATE INDEX limit_order_events_by_order ON limit_order_events (limit_order_id, id);

-- An order as its next event: one definition for both triggers.
CREATE VIEW limit_order_event_now AS
SELECT limit_order_id, updated_at AS at, status, json_object(
  'status', status, 'quoteId', quote_id, 'attempts', attempts, 'lastError', last_error,
  'lastCheckedAt', last_checked_at, 'bestReceived', best_received, 'updatedAt', updated_at) AS data
FROM limit_orders;

CREATE TRIGGER limit_order_placed AFTER INSERT ON limit_orders
BEGIN
  INSERT INTO limit_order_events (limit_order_id, at, status, data)
  SELECT limit_order_id, at, status, data FROM limit_order_event_now WHERE limit_order_id = NEW.limit_order_id;
END;

CREATE TRIGGER limit_order_moved AFTER UPDATE OF status ON limit_orders
WHEN NEW.status <> OLD.status
BEGIN
  INSERT INTO limit_order_events (limit_order_id, at, status, data)
  SELECT limit_order_id, at, status, data FROM limit_order_event_now WHERE limit_order_id = NEW.limit_order_id;
END;
