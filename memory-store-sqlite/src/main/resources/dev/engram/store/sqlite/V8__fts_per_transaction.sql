-- The full-text index is written once per transaction instead of once per version. FTS5 writes its
-- pending terms to disk as a new segment at every statement savepoint, so indexing each version from
-- its own insert statement made one segment (and its merge work) per version. The triggers now only
-- note the versions that became active in fts_pending; the store indexes them all with one statement
-- just before the transaction commits and empties the table. A version that stops being active in the
-- same transaction is only taken off that list; the committed state never holds pending rows.

CREATE TABLE fts_pending (
  seq INTEGER PRIMARY KEY
);

DROP TRIGGER versions_after_insert;

CREATE TRIGGER versions_after_insert AFTER INSERT ON versions BEGIN
  INSERT INTO version_topics (scope, topic, active, version_id, seq)
  SELECT new.scope, j.value, new.status = 'ACTIVE', new.version_id, new.seq FROM json_each(new.topics) j;
  INSERT INTO topic_counts (scope, topic, active_count)
  SELECT new.scope, j.value, 1 FROM json_each(new.topics) j WHERE new.status = 'ACTIVE'
  ON CONFLICT (scope, topic) DO UPDATE SET active_count = active_count + 1;
  INSERT OR IGNORE INTO fts_pending (seq) SELECT new.seq WHERE new.status = 'ACTIVE';
END;

DROP TRIGGER versions_after_activate;

CREATE TRIGGER versions_after_activate AFTER UPDATE OF status ON versions
WHEN old.status <> 'ACTIVE' AND new.status = 'ACTIVE' BEGIN
  UPDATE version_topics SET active = 1
  WHERE scope = new.scope AND topic IN (SELECT value FROM json_each(new.topics)) AND active = 0
    AND version_id = new.version_id;
  INSERT INTO topic_counts (scope, topic, active_count)
  SELECT new.scope, j.value, 1 FROM json_each(new.topics) j WHERE true
  ON CONFLICT (scope, topic) DO UPDATE SET active_count = active_count + 1;
  INSERT OR IGNORE INTO fts_pending (seq) VALUES (new.seq);
END;

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
  SELECT 'delete', old.seq, substr(old.content, 1, 262144), (SELECT group_concat(value, ' ') FROM json_each(old.glossary)),
         old.disclosure, (SELECT group_concat(value, ' ') FROM json_each(old.topics) WHERE value <> 'general'), 'k' || lower(hex(old.scope))
  WHERE NOT EXISTS (SELECT 1 FROM fts_pending WHERE seq = old.seq);
  DELETE FROM fts_pending WHERE seq = old.seq;
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
  WHERE old.status = 'ACTIVE' AND NOT EXISTS (SELECT 1 FROM fts_pending WHERE seq = old.seq);
  DELETE FROM fts_pending WHERE seq = old.seq;
END;
