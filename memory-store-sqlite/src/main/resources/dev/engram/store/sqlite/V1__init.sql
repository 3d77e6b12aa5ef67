-- Engram SQLite schema, version 1.
-- List columns (topics, glossary, evidence, changes) hold JSON arrays in the dev.engram.spi.EntryJson form;
-- instants are ISO-8601 UTC text.

-- The revision log: one row per committed revision, change sets as ids only. A scope's head is its
-- highest revision; the log outlives erasure, so the head never goes back.
CREATE TABLE revisions (
  scope    TEXT NOT NULL,
  revision INTEGER NOT NULL CHECK (revision >= 1),
  changes  TEXT NOT NULL,
  at       TEXT NOT NULL,
  PRIMARY KEY (scope, revision)
) WITHOUT ROWID;

-- Every version of every entry. Versions are immutable but for status, superseded_by and updated_at.
-- seq is the rowid the full-text index refers to.
CREATE TABLE versions (
  seq                 INTEGER PRIMARY KEY,
  version_id          TEXT NOT NULL UNIQUE,
  entry_id            TEXT NOT NULL,
  version             INTEGER NOT NULL CHECK (version >= 1),
  previous_version_id TEXT,
  scope               TEXT NOT NULL,
  content             TEXT NOT NULL,
  topics              TEXT NOT NULL,
  type                TEXT NOT NULL,
  priority            INTEGER NOT NULL,
  disclosure          TEXT,
  glossary            TEXT NOT NULL,
  path                TEXT,
  source              TEXT,
  evidence            TEXT NOT NULL,
  content_hash        TEXT NOT NULL,
  status              TEXT NOT NULL CHECK (status IN ('ACTIVE', 'SUPERSEDED', 'RETIRED')),
  superseded_by       TEXT,
  created_at          TEXT NOT NULL,
  updated_at          TEXT NOT NULL,
  created_in_revision INTEGER NOT NULL,
  UNIQUE (entry_id, version)
);

CREATE INDEX versions_scope_status ON versions (scope, status, version_id);
CREATE INDEX versions_active_hash ON versions (scope, content_hash, version_id) WHERE status = 'ACTIVE';
CREATE INDEX versions_active_path ON versions (scope, path, version_id) WHERE status = 'ACTIVE' AND path IS NOT NULL;
CREATE INDEX versions_key_priority ON versions (priority, scope) WHERE status = 'ACTIVE' AND priority <= 1;

-- One row per (version, topic): the topic index behind read(topic); active mirrors versions.status.
-- Rows are found through the version's scope and topics, so no second index is kept.
CREATE TABLE version_topics (
  scope      TEXT NOT NULL,
  topic      TEXT NOT NULL,
  active     INTEGER NOT NULL CHECK (active IN (0, 1)),
  version_id TEXT NOT NULL,
  seq        INTEGER NOT NULL,
  PRIMARY KEY (scope, topic, active, version_id)
) WITHOUT ROWID;

-- Active entries per (scope, topic); a row exists only while the count is above zero.
CREATE TABLE topic_counts (
  scope        TEXT NOT NULL,
  topic        TEXT NOT NULL,
  active_count INTEGER NOT NULL CHECK (active_count >= 0),
  PRIMARY KEY (scope, topic)
) WITHOUT ROWID;

-- Topic bookkeeping: blurb and write / curation stamps per (scope, topic).
CREATE TABLE topics (
  scope                 TEXT NOT NULL,
  topic                 TEXT NOT NULL,
  blurb                 TEXT,
  last_write_revision   INTEGER NOT NULL DEFAULT 0,
  last_curated_revision INTEGER NOT NULL DEFAULT 0,
  last_updated_at       TEXT,
  PRIMARY KEY (scope, topic)
) WITHOUT ROWID;

CREATE INDEX topics_dirty ON topics (scope, topic) WHERE last_write_revision > last_curated_revision;

-- History: one row per change, with before / after snapshots of the version.
CREATE TABLE events (
  event_id TEXT NOT NULL PRIMARY KEY,
  scope    TEXT NOT NULL,
  entry_id TEXT NOT NULL,
  kind     TEXT NOT NULL,
  before   TEXT,
  after    TEXT,
  actor    TEXT,
  reason   TEXT,
  revision INTEGER NOT NULL,
  at       TEXT NOT NULL
);

CREATE INDEX events_entry ON events (entry_id, revision, event_id);

-- Embeddings of the views of a version (content, gist, questions) per embedding profile; vector holds
-- little-endian IEEE-754 floats.
CREATE TABLE version_vectors (
  profile    TEXT NOT NULL,
  version_id TEXT NOT NULL REFERENCES versions (version_id) ON DELETE CASCADE,
  ordinal    INTEGER NOT NULL,
  view       TEXT NOT NULL,
  vector     BLOB NOT NULL,
  PRIMARY KEY (profile, version_id, ordinal)
) WITHOUT ROWID;

CREATE INDEX version_vectors_version ON version_vectors (version_id);

-- Full-text index of the active versions over content, glossary, disclosure and topics (Porter stems
-- of Unicode words), rowid = versions.seq. scope_key holds the scope as one token ('k' and the hex of
-- its UTF-8 bytes), so a search intersects with the searched scopes inside the index instead of
-- visiting every match of the whole file.
CREATE VIRTUAL TABLE versions_fts USING fts5 (
  content, glossary, disclosure, topics, scope_key,
  content = '', contentless_delete = 1,
  tokenize = 'porter unicode61 remove_diacritics 2'
);

-- The topic index, active counts and full-text index follow every insert, status change and delete of
-- a version, inside the same transaction.

CREATE TRIGGER versions_after_insert AFTER INSERT ON versions BEGIN
  INSERT INTO version_topics (scope, topic, active, version_id, seq)
  SELECT new.scope, j.value, new.status = 'ACTIVE', new.version_id, new.seq FROM json_each(new.topics) j;
  INSERT INTO topic_counts (scope, topic, active_count)
  SELECT new.scope, j.value, 1 FROM json_each(new.topics) j WHERE new.status = 'ACTIVE'
  ON CONFLICT (scope, topic) DO UPDATE SET active_count = active_count + 1;
  INSERT INTO versions_fts (rowid, content, glossary, disclosure, topics, scope_key)
  SELECT new.seq, new.content, (SELECT group_concat(value, ' ') FROM json_each(new.glossary)), new.disclosure,
         (SELECT group_concat(value, ' ') FROM json_each(new.topics)), 'k' || lower(hex(new.scope))
  WHERE new.status = 'ACTIVE';
END;

CREATE TRIGGER versions_after_activate AFTER UPDATE OF status ON versions
WHEN old.status <> 'ACTIVE' AND new.status = 'ACTIVE' BEGIN
  UPDATE version_topics SET active = 1
  WHERE scope = new.scope AND topic IN (SELECT value FROM json_each(new.topics)) AND active = 0
    AND version_id = new.version_id;
  INSERT INTO topic_counts (scope, topic, active_count)
  SELECT new.scope, j.value, 1 FROM json_each(new.topics) j WHERE true
  ON CONFLICT (scope, topic) DO UPDATE SET active_count = active_count + 1;
  INSERT INTO versions_fts (rowid, content, glossary, disclosure, topics, scope_key)
  VALUES (new.seq, new.content, (SELECT group_concat(value, ' ') FROM json_each(new.glossary)), new.disclosure,
          (SELECT group_concat(value, ' ') FROM json_each(new.topics)), 'k' || lower(hex(new.scope)));
END;

CREATE TRIGGER versions_after_deactivate AFTER UPDATE OF status ON versions
WHEN old.status = 'ACTIVE' AND new.status <> 'ACTIVE' BEGIN
  UPDATE version_topics SET active = 0
  WHERE scope = old.scope AND topic IN (SELECT value FROM json_each(old.topics)) AND active = 1
    AND version_id = old.version_id;
  UPDATE topic_counts SET active_count = active_count - 1
  WHERE scope = old.scope AND topic IN (SELECT value FROM json_each(old.topics));
  DELETE FROM topic_counts
  WHERE scope = old.scope AND active_count = 0 AND topic IN (SELECT value FROM json_each(old.topics));
  DELETE FROM versions_fts WHERE rowid = old.seq;
END;

CREATE TRIGGER versions_after_delete AFTER DELETE ON versions BEGIN
  DELETE FROM version_topics
  WHERE scope = old.scope AND topic IN (SELECT value FROM json_each(old.topics))
    AND active = (old.status = 'ACTIVE') AND version_id = old.version_id;
  DELETE FROM version_vectors WHERE version_id = old.version_id;
  UPDATE topic_counts SET active_count = active_count - 1
  WHERE old.status = 'ACTIVE' AND scope = old.scope AND topic IN (SELECT value FROM json_each(old.topics));
  DELETE FROM topic_counts
  WHERE old.status = 'ACTIVE' AND scope = old.scope AND active_count = 0
    AND topic IN (SELECT value FROM json_each(old.topics));
  DELETE FROM versions_fts WHERE old.status = 'ACTIVE' AND rowid = old.seq;
END;
