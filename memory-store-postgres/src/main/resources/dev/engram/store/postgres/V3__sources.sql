-- Sources: captured records of what happened, per scope in capture order, and the extraction cursor.
-- Event time is kept exactly (ISO-8601 text) and as (epoch second, nano) for range filters.
-- Entries get their own event time.
ALTER TABLE ${schema}${prefix}versions ADD COLUMN occurred_at text;

CREATE TABLE ${schema}${prefix}sources (
  scope       text COLLATE "C" NOT NULL,
  position    bigint NOT NULL CHECK (position >= 1),
  source_id   text COLLATE "C" NOT NULL,
  session_id  text COLLATE "C" NOT NULL,
  speaker     text NOT NULL,
  body        text NOT NULL,
  occurred_at text NOT NULL,
  occurred_s  bigint NOT NULL,
  occurred_n  integer NOT NULL,
  metadata    jsonb NOT NULL,
  captured_at text NOT NULL,
  PRIMARY KEY (scope, position),
  UNIQUE (scope, source_id)
);
CREATE INDEX ${prefix}sources_session_idx ON ${schema}${prefix}sources (scope, session_id, position);

-- One row per scope that ever captured: the highest position (never lowered by deletions, so a
-- position is never reused), the cursor up to which extraction committed, and a flush worker's
-- leased claim on the scope (like the topic claims).
CREATE TABLE ${schema}${prefix}source_state (
  scope         text COLLATE "C" PRIMARY KEY,
  last_position bigint NOT NULL CHECK (last_position >= 0),
  cursor        bigint NOT NULL CHECK (cursor >= 0 AND cursor <= last_position),
  claimed_by    text,
  claim_token   text,
  claimed_until timestamptz
);
CREATE INDEX ${prefix}source_state_pending_idx ON ${schema}${prefix}source_state (scope)
  WHERE last_position > cursor;
