-- Among the active versions of a scope: one per path, and one per content hash among those without a
-- path (a path names a concept, so addressed entries may share content). The engine refuses such
-- changes before it writes; these indexes hold the rule for every process sharing the database.
CREATE UNIQUE INDEX ${prefix}versions_unique_active_hash_idx ON ${schema}${prefix}versions (scope, content_hash)
  WHERE status = 'ACTIVE' AND path IS NULL;
CREATE UNIQUE INDEX ${prefix}versions_unique_active_path_idx ON ${schema}${prefix}versions (scope, path)
  WHERE status = 'ACTIVE' AND path IS NOT NULL;
