-- Engram SQLite schema, version 4: erasing a version leaves none of its terms in the full-text index.
-- A contentless-delete FTS5 table only marks a deleted row with a tombstone and keeps its terms in the
-- index segments until they are merged. A contentless table told the deleted row's values (the
-- 'delete' command) with the 'secure-delete' option set removes those terms from the index at once.
-- The index is rebuilt from the active versions.

DROP TABLE versions_fts;

CREATE VIRTUAL TABLE versions_fts USING fts5 (
  content, glossary, disclosure, topics, scope_key,
  content = '',
  tokenize = 'porter unicode61 remove_diacritics 2'
);

INSERT INTO versions_fts (versions_fts, rank) VALUES ('secure-delete', 1);

INSERT INTO versions_fts (rowid, content, glossary, disclosure, topics, scope_key)
SELECT v.seq, substr(v.content, 1, 262144), (SELECT group_concat(value, ' ') FROM json_each(v.glossary)), v.disclosure,
       (SELECT group_concat(value, ' ') FROM json_each(v.topics) WHERE value <> 'general'), 'k' || lower(hex(v.scope))
FROM versions v WHERE v.status = 'ACTIVE';

-- Removal from the index repeats the values the insert and activate triggers (version 3) indexed,
-- computed the same way from the same (immutable) columns.

DROP TRIGGER versions_after_deactivate;

CREATE TRIGGER versions_after_deactivate AFTER UPDATE OF status ON versions
WHEN old.status = 'ACTIVE' AND new.status <> 'ACTIVE' BEGIN
  UPDATE version_topics SET active = 0
  WHERE scope = old.scope AND topic IN (SELECT value FROM json_each(old.topics)) AND active = 1
    AND version_id = old.version_id;
  UPDATE topic_counts SET active_count = active_count - 1
  WHERE scope = old.scope AND topic IN (SELECT value FROM json_each(old.topics));
  DELETE FROM topic_counts
  WHERE scope = old.scope AND active_count = 0 AND topic IN (SELECT value FROM json_each(old.topics));
  INSERT INTO versions_fts (versions_fts, rowid, content, glossary, disclosure, topics, scope_key)
  VALUES ('delete', old.seq, substr(old.content, 1, 262144), (SELECT group_concat(value, ' ') FROM json_each(old.glossary)),
          old.disclosure, (SELECT group_concat(value, ' ') FROM json_each(old.topics) WHERE value <> 'general'), 'k' || lower(hex(old.scope)));
END;

DROP TRIGGER versions_after_delete;

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
  INSERT INTO versions_fts (versions_fts, rowid, content, glossary, disclosure, topics, scope_key)
  SELECT 'delete', old.seq, substr(old.content, 1, 262144), (SELECT group_concat(value, ' ') FROM json_each(old.glossary)),
         old.disclosure, (SELECT group_concat(value, ' ') FROM json_each(old.topics) WHERE value <> 'general'), 'k' || lower(hex(old.scope))
  WHERE old.status = 'ACTIVE';
END;
