-- Sources: captured records of what happened, per scope in capture order, and the extraction cursor.
-- Event time is kept exactly (ISO-8601 text) and as (epoch second, nano) for range filters, since
-- ISO text with a varying fraction does not sort by time. Entries get their own event time.

ALTER TABLE versions ADD COLUMN occurred_at TEXT;

CREATE TABLE sources (
  scope        TEXT NOT NULL,
  position     INTEGER NOT NULL CHECK (position >= 1),
  source_id    TEXT NOT NULL,
  session_id   TEXT NOT NULL,
  speaker      TEXT NOT NULL,
  text         TEXT NOT NULL,
  occurred_at  TEXT NOT NULL,
  occurred_s   INTEGER NOT NULL,
  occurred_n   INTEGER NOT NULL,
  metadata     TEXT NOT NULL,
  captured_at  TEXT NOT NULL,
  PRIMARY KEY (scope, position),
  UNIQUE (scope, source_id)
) WITHOUT ROWID;

CREATE INDEX sources_session ON sources (scope, session_id, position);

-- One row per scope that ever captured: the highest position (never lowered by deletions, so a
-- position is never reused) and the cursor up to which extraction committed.
CREATE TABLE source_state (
  scope         TEXT PRIMARY KEY,
  last_position INTEGER NOT NULL CHECK (last_position >= 0),
  cursor        INTEGER NOT NULL CHECK (cursor >= 0 AND cursor <= last_position)
) WITHOUT ROWID;
