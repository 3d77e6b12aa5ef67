-- Engram PostgreSQL schema, version 1.
-- ${schema} is replaced by the schema qualifier ("name". or nothing) and ${prefix} by the table
-- prefix before this script runs.
-- Identifiers, scopes and topics use the "C" collation so that ordering matches Java's
-- String.compareTo for the time-ordered ids. Instants are ISO-8601 UTC text so that they
-- round-trip at full precision.

-- The head revision of each scope; its row lock serializes writers to the scope across processes.
CREATE TABLE ${schema}${prefix}scope_heads (
  scope text COLLATE "C" PRIMARY KEY,
  head  bigint NOT NULL DEFAULT 0
);

-- Every version of every entry. Versions are immutable except status, superseded_by and updated_at.
CREATE TABLE ${schema}${prefix}versions (
  version_id          text COLLATE "C" PRIMARY KEY,
  entry_id            text COLLATE "C" NOT NULL,
  version             integer NOT NULL,
  previous_version_id text COLLATE "C",
  scope               text COLLATE "C" NOT NULL,
  content             text NOT NULL,
  topics              text[] NOT NULL,
  type                text NOT NULL,
  priority            integer NOT NULL,
  disclosure          text,
  glossary            text[] NOT NULL,
  path                text COLLATE "C",
  source              text,
  evidence            text[] NOT NULL,
  content_hash        text COLLATE "C" NOT NULL,
  status              text NOT NULL CHECK (status IN ('ACTIVE', 'SUPERSEDED', 'RETIRED')),
  superseded_by       text COLLATE "C",
  created_at          text NOT NULL,
  updated_at          text NOT NULL,
  created_in_revision bigint NOT NULL,
  -- full text, written with the row: glossary (weight A), content (B), topics (C), disclosure (D)
  search              tsvector NOT NULL
);
CREATE INDEX ${prefix}versions_entry_idx ON ${schema}${prefix}versions (entry_id, version);
CREATE INDEX ${prefix}versions_scope_idx ON ${schema}${prefix}versions (scope, status);
CREATE INDEX ${prefix}versions_hash_idx ON ${schema}${prefix}versions (scope, content_hash, version_id)
  WHERE status = 'ACTIVE';
CREATE INDEX ${prefix}versions_path_idx ON ${schema}${prefix}versions (scope, path, version_id)
  WHERE status = 'ACTIVE' AND path IS NOT NULL;
-- priority caps apply to core (0) and key (1) entries only
CREATE INDEX ${prefix}versions_priority_idx ON ${schema}${prefix}versions (priority, scope)
  WHERE status = 'ACTIVE' AND priority <= 1;
CREATE INDEX ${prefix}versions_search_idx ON ${schema}${prefix}versions USING gin (search);

-- One row per (version, topic): the index behind "active entries of a topic, newest first".
CREATE TABLE ${schema}${prefix}version_topics (
  scope      text COLLATE "C" NOT NULL,
  topic      text COLLATE "C" NOT NULL,
  version_id text COLLATE "C" NOT NULL,
  active     boolean NOT NULL,
  PRIMARY KEY (scope, topic, version_id)
);
CREATE INDEX ${prefix}version_topics_active_idx ON ${schema}${prefix}version_topics (scope, topic, version_id)
  WHERE active;

-- Embeddings per version, embedding profile (model@dimension) and view (content, gist, question1, ...):
-- little-endian IEEE-754 floats, so no vector extension is needed.
CREATE TABLE ${schema}${prefix}vectors (
  version_id text COLLATE "C" NOT NULL,
  profile_id text COLLATE "C" NOT NULL,
  ordinal    integer NOT NULL,
  view       text NOT NULL,
  vector     bytea NOT NULL,
  PRIMARY KEY (version_id, profile_id, ordinal)
);

-- The history of every entry, with before/after snapshots as JSON.
CREATE TABLE ${schema}${prefix}events (
  event_id text COLLATE "C" PRIMARY KEY,
  entry_id text COLLATE "C" NOT NULL,
  scope    text COLLATE "C" NOT NULL,
  revision bigint NOT NULL,
  body     jsonb NOT NULL
);
CREATE INDEX ${prefix}events_entry_idx ON ${schema}${prefix}events (entry_id, revision, event_id);

-- The revision log of each scope: change sets hold ids only.
CREATE TABLE ${schema}${prefix}revisions (
  scope    text COLLATE "C" NOT NULL,
  revision bigint NOT NULL,
  changes  jsonb NOT NULL,
  at       text NOT NULL,
  PRIMARY KEY (scope, revision)
);

-- Per (scope, topic): blurb, dirty tracking and the curation work claim.
CREATE TABLE ${schema}${prefix}topics (
  scope                 text COLLATE "C" NOT NULL,
  topic                 text COLLATE "C" NOT NULL,
  blurb                 text,
  last_write_revision   bigint NOT NULL DEFAULT 0,
  last_curated_revision bigint NOT NULL DEFAULT 0,
  last_updated_at       text,
  claimed_by            text,
  claim_token           text,
  claimed_until         timestamptz,
  PRIMARY KEY (scope, topic)
);
CREATE INDEX ${prefix}topics_dirty_idx ON ${schema}${prefix}topics (scope, topic)
  WHERE last_write_revision > last_curated_revision;
