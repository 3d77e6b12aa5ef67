-- Fewer pages per write. A commit writes every page it changed to the write-ahead log, and every b-tree a
-- write touches costs at least one page, so each b-tree less is a page less per write.

-- One content-hash index instead of two. The lookup of the active versions of a scope by content hash
-- (all of them, addressed or not) and the rule that at most one active version without a path holds a
-- content hash in its scope (version 2) are served by one unique index over the active versions: the
-- versions without a path all have the same last two key columns (0, ''), so two of them with one hash
-- collide; an addressed version has (1, its path), which another active version can only share if it has
-- the same path, which versions_unique_active_path already refuses.
DROP INDEX versions_active_hash;

DROP INDEX versions_unique_active_hash;

CREATE UNIQUE INDEX versions_active_hash ON versions (scope, content_hash, path IS NOT NULL, coalesce(path, ''))
  WHERE status = 'ACTIVE';

-- The topics written since they were last curated, as a table instead of a partial index. Every write
-- raises a topic's last_write_revision, and SQLite takes a row out of a partial index and puts it back
-- whenever a column of the index's condition changes, even when the row stays in it: one page per write
-- for a topic that was already waiting. A row here is inserted only when a topic starts waiting and
-- deleted when it is curated up to its last write; the triggers keep it exactly the rows of topics with
-- last_write_revision > last_curated_revision, as the index held them.
CREATE TABLE dirty_topics (
  scope TEXT NOT NULL,
  topic TEXT NOT NULL,
  PRIMARY KEY (scope, topic)
) WITHOUT ROWID;

INSERT INTO dirty_topics (scope, topic)
SELECT scope, topic FROM topics WHERE last_write_revision > last_curated_revision;

DROP INDEX topics_dirty;

CREATE TRIGGER topics_after_insert AFTER INSERT ON topics
WHEN new.last_write_revision > new.last_curated_revision BEGIN
  INSERT INTO dirty_topics (scope, topic) VALUES (new.scope, new.topic) ON CONFLICT DO NOTHING;
END;

CREATE TRIGGER topics_after_update AFTER UPDATE OF last_write_revision, last_curated_revision ON topics BEGIN
  INSERT INTO dirty_topics (scope, topic)
  SELECT new.scope, new.topic WHERE new.last_write_revision > new.last_curated_revision ON CONFLICT DO NOTHING;
  DELETE FROM dirty_topics
  WHERE new.last_write_revision <= new.last_curated_revision AND scope = new.scope AND topic = new.topic;
END;

CREATE TRIGGER topics_after_delete AFTER DELETE ON topics BEGIN
  DELETE FROM dirty_topics WHERE scope = old.scope AND topic = old.topic;
END;

-- The versions waiting for the full-text index are listed by the store in memory instead of in the
-- fts_pending table (version 8), which each write filled and emptied again, one page per write. The list
-- belongs to the open transaction, as the table's rows did: the store indexes it before the commit, before
-- a search in the transaction, and before a version on it stops being active or is deleted, so the
-- triggers that take a version's terms out of the index always find them there. No committed state holds
-- pending rows; any that a file holds anyway are indexed here before the table goes.
INSERT INTO versions_fts (rowid, content, glossary, disclosure, topics, scope_key)
SELECT v.seq, engram_fts_terms(substr(v.content, 1, 262144)),
       engram_fts_terms((SELECT group_concat(value, ' ') FROM json_each(v.glossary))), engram_fts_terms(v.disclosure),
       engram_fts_terms((SELECT group_concat(value, ' ') FROM json_each(v.topics) WHERE value <> 'general')),
       'k' || lower(hex(v.scope))
FROM fts_pending p CROSS JOIN versions v ON v.seq = p.seq WHERE v.status = 'ACTIVE' ORDER BY p.seq;

DROP TRIGGER versions_after_insert;

CREATE TRIGGER versions_after_insert AFTER INSERT ON versions BEGIN
  INSERT INTO version_topics (scope, topic, active, version_id, seq)
  SELECT new.scope, j.value, new.status = 'ACTIVE', new.version_id, new.seq FROM json_each(new.topics) j;
  INSERT INTO topic_counts (scope, topic, active_count)
  SELECT new.scope, j.value, 1 FROM json_each(new.topics) j WHERE new.status = 'ACTIVE'
  ON CONFLICT (scope, topic) DO UPDATE SET active_count = active_count + 1;
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
  VALUES ('delete', old.seq, engram_fts_terms(substr(old.content, 1, 262144)),
          engram_fts_terms((SELECT group_concat(value, ' ') FROM json_each(old.glossary))),
          engram_fts_terms(old.disclosure),
          engram_fts_terms((SELECT group_concat(value, ' ') FROM json_each(old.topics) WHERE value <> 'general')),
          'k' || lower(hex(old.scope)));
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
  SELECT 'delete', old.seq, engram_fts_terms(substr(old.content, 1, 262144)),
         engram_fts_terms((SELECT group_concat(value, ' ') FROM json_each(old.glossary))),
         engram_fts_terms(old.disclosure),
         engram_fts_terms((SELECT group_concat(value, ' ') FROM json_each(old.topics) WHERE value <> 'general')),
         'k' || lower(hex(old.scope))
  WHERE old.status = 'ACTIVE';
END;

DROP TABLE fts_pending;

-- FTS5 merges a level's segments once it holds this many (the default is 4). Every transaction adds a
-- segment; merging in pairs keeps fewer, smaller segments, so both the merge work a write carries and the
-- segments a search reads go down (measured: 3.7 against 2.5 pages of versions_fts_data per write).
INSERT INTO versions_fts (versions_fts, rank) VALUES ('automerge', 2);
