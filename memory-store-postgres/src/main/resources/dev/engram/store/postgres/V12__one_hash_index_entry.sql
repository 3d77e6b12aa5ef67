-- One content-hash index entry per active version instead of two. Schema 1 indexed every active version
-- by (scope, content_hash, version_id) for the lookups by hash, and schema 2 added the unique index on
-- (scope, content_hash) of the active versions without a path, so a version without a path (most of
-- them) filled both: two b-tree entries of a 64-character key in random order. One unique index over every
-- active version now holds both: its key is (scope, content_hash) and a third part that is the same for
-- every version without a path ('') and differs for every version with one ('/' and its path). So
-- among the versions without a path the rule of schema 2 holds as before, and two versions with a path
-- collide only if they share their path, which versions_unique_active_path_idx already refuses; the
-- lookups by hash search its (scope, content_hash) prefix.
DROP INDEX ${schema}${prefix}versions_hash_idx;
DROP INDEX ${schema}${prefix}versions_unique_active_hash_idx;
CREATE UNIQUE INDEX ${prefix}versions_unique_active_hash_idx
  ON ${schema}${prefix}versions (scope, content_hash, (coalesce('/' || path, '')))
  WHERE status = 'ACTIVE';
