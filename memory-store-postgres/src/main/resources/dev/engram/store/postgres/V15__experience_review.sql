-- Experience and the review inbox (StoreCapability.REVIEW). Experience versions and review items are
-- each one JSON document (dev.engram.spi.ReviewJson) with the columns the store looks them up by. An
-- experience has at most one active version; search holds the terms of an active version's four fields
-- (the literal of the engine's text analysis, rebuilt by the text reanalysis like the versions' column)
-- and is null for the others, so only active versions are found. The incubation cursor is a scope's own,
-- beside the extraction cursor of source_state. All of it is erased with its scope.
CREATE TABLE ${schema}${prefix}experience_versions (
  version_id    text COLLATE "C" PRIMARY KEY,
  experience_id text COLLATE "C" NOT NULL,
  version       integer NOT NULL CHECK (version >= 1),
  scope         text COLLATE "C" NOT NULL,
  status        text NOT NULL CHECK (status IN ('ACTIVE', 'SUPERSEDED', 'RETIRED')),
  doc           text NOT NULL,
  search        tsvector,
  UNIQUE (experience_id, version),
  CHECK ((status = 'ACTIVE') = (search IS NOT NULL))
);
CREATE INDEX ${prefix}experience_versions_scope_idx
  ON ${schema}${prefix}experience_versions (scope, experience_id, version);
CREATE UNIQUE INDEX ${prefix}experience_versions_one_active_idx
  ON ${schema}${prefix}experience_versions (experience_id) WHERE status = 'ACTIVE';
CREATE INDEX ${prefix}experience_versions_search_idx
  ON ${schema}${prefix}experience_versions USING gin (search);

CREATE TABLE ${schema}${prefix}review_items (
  item_id text COLLATE "C" PRIMARY KEY,
  scope   text COLLATE "C" NOT NULL,
  kind    text NOT NULL,
  state   text NOT NULL CHECK (state IN ('PENDING', 'APPROVED', 'REJECTED')),
  version bigint NOT NULL CHECK (version >= 1),
  doc     text NOT NULL
);
CREATE INDEX ${prefix}review_items_scope_idx ON ${schema}${prefix}review_items (scope, state, item_id);

CREATE TABLE ${schema}${prefix}incubation_state (
  scope  text COLLATE "C" PRIMARY KEY,
  cursor bigint NOT NULL CHECK (cursor >= 0)
);
