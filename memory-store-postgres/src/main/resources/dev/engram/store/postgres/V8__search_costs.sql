-- The full-text index's pending list is bounded. A GIN index with fast update collects new entries in an
-- unsorted pending list that every search scans whole, and it is merged only by vacuum or once it
-- exceeds gin_pending_list_limit (4 MB by default: thousands of versions). Between autovacuum runs a
-- busy scope's searches therefore got slower with every write (1.6 ms per query term at 8,000 versions,
-- 0.015 ms after a merge). A 128 kB limit makes the insert that crosses it merge the list, so a search
-- scans at most a few hundred pending versions, at a small, amortized cost to writes.
ALTER INDEX ${schema}${prefix}versions_search_idx SET (gin_pending_list_limit = 128);
SELECT gin_clean_pending_list('${schema}${prefix}versions_search_idx'::regclass);

-- Active versions per scope, kept by a trigger on the versions, so full-text ranking (BM25's document
-- count) reads one row per searched scope instead of counting the scope's versions at every search.
CREATE TABLE ${schema}${prefix}scope_counts (
  scope        text COLLATE "C" PRIMARY KEY,
  active_count integer NOT NULL
);

INSERT INTO ${schema}${prefix}scope_counts (scope, active_count)
  SELECT scope, count(*) FROM ${schema}${prefix}versions WHERE status = 'ACTIVE' GROUP BY scope;

CREATE FUNCTION ${schema}${prefix}count_active_versions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.status = 'ACTIVE' THEN
    UPDATE ${schema}${prefix}scope_counts SET active_count = active_count - 1 WHERE scope = OLD.scope;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.status = 'ACTIVE' THEN
    INSERT INTO ${schema}${prefix}scope_counts AS c (scope, active_count) VALUES (NEW.scope, 1)
      ON CONFLICT (scope) DO UPDATE SET active_count = c.active_count + 1;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER ${prefix}versions_count
  AFTER INSERT OR DELETE OR UPDATE OF status ON ${schema}${prefix}versions
  FOR EACH ROW EXECUTE PROCEDURE ${schema}${prefix}count_active_versions();
