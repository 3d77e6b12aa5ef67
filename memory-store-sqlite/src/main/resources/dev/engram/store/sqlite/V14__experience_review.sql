-- Experience and the review inbox (StoreCapability.REVIEW). Experience versions and review items are
-- each one JSON document (dev.engram.spi.ReviewJson) with the columns the store looks them up by; an
-- experience has at most one active version, and only active versions are in experience_fts. The
-- incubation cursor is a scope's own, beside the extraction cursor of source_state. All of it is erased
-- with its scope; an experience's versions go with it, and a review item alone.

-- seq is the row id experience_fts indexes the version under.
CREATE TABLE experience_versions (
  seq           INTEGER PRIMARY KEY,
  version_id    TEXT NOT NULL UNIQUE,
  experience_id TEXT NOT NULL,
  version       INTEGER NOT NULL CHECK (version >= 1),
  scope         TEXT NOT NULL,
  status        TEXT NOT NULL CHECK (status IN ('ACTIVE', 'SUPERSEDED', 'RETIRED')),
  doc           TEXT NOT NULL,
  UNIQUE (experience_id, version)
);

CREATE INDEX experience_versions_scope ON experience_versions (scope, experience_id, version);

CREATE UNIQUE INDEX experience_versions_one_active ON experience_versions (experience_id) WHERE status = 'ACTIVE';

-- The experience index: the terms of an active version's four fields (Experience.text() through
-- engram_fts_terms, the one text analysis the versions' index uses), rowid = experience_versions.seq;
-- secure-delete so a version leaving the index takes its terms with it.
CREATE VIRTUAL TABLE experience_fts USING fts5 (
  terms,
  tokenize = "ascii tokenchars '_''.,'"
);

INSERT INTO experience_fts (experience_fts, rank) VALUES ('secure-delete', 1);

CREATE TABLE review_items (
  item_id TEXT PRIMARY KEY,
  scope   TEXT NOT NULL,
  kind    TEXT NOT NULL,
  state   TEXT NOT NULL CHECK (state IN ('PENDING', 'APPROVED', 'REJECTED')),
  version INTEGER NOT NULL CHECK (version >= 1),
  doc     TEXT NOT NULL
) WITHOUT ROWID;

CREATE INDEX review_items_scope ON review_items (scope, state, item_id);

CREATE TABLE incubation_state (
  scope  TEXT PRIMARY KEY,
  cursor INTEGER NOT NULL CHECK (cursor >= 0)
) WITHOUT ROWID;
