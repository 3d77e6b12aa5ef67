-- One content-hash index entry per active version instead of two. Schema 1 indexed every active version
-- by (scope, content_hash, version_id) for the dedupe lookups, and schema 2 added the unique index on
-- (scope, content_hash) of the active versions without a path: a version without a path (most of them)
-- filled both, two random-order b-tree entries of a 64-character key. The lookups now ask each index for
-- its own rows (without a path: the unique index; with a path: this one) and merge the answers, so the
-- general index keeps only the versions with a path.
DROP INDEX ${schema}${prefix}versions_hash_idx;
CREATE INDEX ${prefix}versions_path_hash_idx ON ${schema}${prefix}versions (scope, content_hash, version_id)
  WHERE status = 'ACTIVE' AND path IS NOT NULL;

-- The expected-head lock of schema 11, its hash checks split the same way.
CREATE OR REPLACE FUNCTION ${schema}${prefix}lock_expected_head(p_scope text, p_head bigint, p_hashes text[])
RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  locked bigint;
BEGIN
  SELECT head INTO locked FROM ${schema}${prefix}scope_heads WHERE scope = p_scope FOR UPDATE;
  IF locked IS DISTINCT FROM p_head THEN
    RAISE EXCEPTION 'the head of % is %, not the expected %', p_scope, coalesce(locked::text, 'missing'), p_head
      USING ERRCODE = 'EH001';
  END IF;
  IF cardinality(p_hashes) = 1 THEN
    IF EXISTS (SELECT 1 FROM ${schema}${prefix}versions
               WHERE scope = p_scope AND content_hash = p_hashes[1] AND status = 'ACTIVE' AND path IS NULL)
       OR EXISTS (SELECT 1 FROM ${schema}${prefix}versions
               WHERE scope = p_scope AND content_hash = p_hashes[1] AND status = 'ACTIVE' AND path IS NOT NULL) THEN
      RAISE EXCEPTION 'an active version of % holds the expected-new content hash', p_scope
        USING ERRCODE = 'EH001';
    END IF;
  ELSIF cardinality(p_hashes) > 1 THEN
    IF EXISTS (SELECT 1 FROM ${schema}${prefix}versions
               WHERE scope = p_scope AND content_hash = ANY (p_hashes) AND status = 'ACTIVE' AND path IS NULL)
       OR EXISTS (SELECT 1 FROM ${schema}${prefix}versions
               WHERE scope = p_scope AND content_hash = ANY (p_hashes) AND status = 'ACTIVE' AND path IS NOT NULL) THEN
      RAISE EXCEPTION 'an active version of % holds an expected-new content hash', p_scope
        USING ERRCODE = 'EH001';
    END IF;
  END IF;
  RETURN locked;
END
$$;
