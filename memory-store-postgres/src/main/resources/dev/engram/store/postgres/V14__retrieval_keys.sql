-- Retrieval keys (StoreCapability.RETRIEVAL_KEYS): extra texts of a version (a captured turn with the
-- turn before it) that search finds the version by, as a full-text index of their own. One row per
-- version that has keys, written in the version's transaction and never changed afterwards but for
-- active, which mirrors the version's status (the statement that changes the status sets it), so the
-- key search counts and finds active versions without reading the versions table. search is the key
-- document (the keys joined by a space) as the literal of the engine's text analysis, at the weight of
-- a version's content; text_analysis (schema 7) covers it as it covers versions.search. The row goes
-- with its version on erasure.
CREATE TABLE ${schema}${prefix}version_keys (
  version_id text COLLATE "C" PRIMARY KEY,
  scope      text COLLATE "C" NOT NULL,
  keys       text[] NOT NULL,
  active     boolean NOT NULL,
  search     tsvector NOT NULL
);
-- the pending list bounded as the versions' full-text index is (schema 8)
CREATE INDEX ${prefix}version_keys_search_idx ON ${schema}${prefix}version_keys USING gin (search)
  WITH (gin_pending_list_limit = 128);
ALTER TABLE ${schema}${prefix}version_keys ALTER COLUMN keys SET STATISTICS 0;

-- Active versions with keys per scope: the key search's document count (BM25), one row per searched
-- scope. The statement that inserts keys adds to it; status changes and erasures are counted by the
-- trigger below, as for scope_counts (schema 9).
CREATE TABLE ${schema}${prefix}key_counts (
  scope        text COLLATE "C" PRIMARY KEY,
  active_count integer NOT NULL
);

CREATE FUNCTION ${schema}${prefix}count_active_keys() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.active THEN
    UPDATE ${schema}${prefix}key_counts SET active_count = active_count - 1 WHERE scope = OLD.scope;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.active THEN
    INSERT INTO ${schema}${prefix}key_counts AS c (scope, active_count) VALUES (NEW.scope, 1)
      ON CONFLICT (scope) DO UPDATE SET active_count = c.active_count + 1;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER ${prefix}version_keys_count
  AFTER DELETE OR UPDATE OF active ON ${schema}${prefix}version_keys
  FOR EACH ROW EXECUTE PROCEDURE ${schema}${prefix}count_active_keys();
