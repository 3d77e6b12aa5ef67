-- Full text covers the first 262,144 characters of content (FullTextQuery.MAX_INDEXED_CONTENT_CHARS)
-- and no longer the default topic 'general' (FullTextQuery.DEFAULT_TOPIC), as on every store. The two
-- triggers that index a version are made anew and the index is rebuilt from the active versions.

DROP TRIGGER versions_after_insert;

DROP TRIGGER versions_after_activate;

CREATE TRIGGER versions_after_insert AFTER INSERT ON versions BEGIN
  INSERT INTO version_topics (scope, topic, active, version_id, seq)
  SELECT new.scope, j.value, new.status = 'ACTIVE', new.version_id, new.seq FROM json_each(new.topics) j;
  INSERT INTO topic_counts (scope, topic, active_count)
  SELECT new.scope, j.value, 1 FROM json_each(new.topics) j WHERE new.status = 'ACTIVE'
  ON CONFLICT (scope, topic) DO UPDATE SET active_count = active_count + 1;
  INSERT INTO versions_fts (rowid, content, glossary, disclosure, topics, scope_key)
  SELECT new.seq, substr(new.content, 1, 262144), (SELECT group_concat(value, ' ') FROM json_each(new.glossary)),
         new.disclosure,
         (SELECT group_concat(value, ' ') FROM json_each(new.topics) WHERE value <> 'general'),
         'k' || lower(hex(new.scope))
  WHERE new.status = 'ACTIVE';
END;

CREATE TRIGGER versions_after_activate AFTER UPDATE OF status ON versions
WHEN old.status <> 'ACTIVE' AND new.status = 'ACTIVE' BEGIN
  UPDATE version_topics SET active = 1
  WHERE scope = new.scope AND topic IN (SELECT value FROM json_each(new.topics)) AND active = 0
    AND version_id = new.version_id;
  INSERT INTO topic_counts (scope, topic, active_count)
  SELECT new.scope, j.value, 1 FROM json_each(new.topics) j WHERE true
  ON CONFLICT (scope, topic) DO UPDATE SET active_count = active_count + 1;
  INSERT INTO versions_fts (rowid, content, glossary, disclosure, topics, scope_key)
  VALUES (new.seq, substr(new.content, 1, 262144), (SELECT group_concat(value, ' ') FROM json_each(new.glossary)),
          new.disclosure,
          (SELECT group_concat(value, ' ') FROM json_each(new.topics) WHERE value <> 'general'),
          'k' || lower(hex(new.scope)));
END;

INSERT INTO versions_fts (versions_fts) VALUES ('delete-all');

INSERT INTO versions_fts (rowid, content, glossary, disclosure, topics, scope_key)
SELECT v.seq, substr(v.content, 1, 262144), (SELECT group_concat(value, ' ') FROM json_each(v.glossary)),
       v.disclosure,
       (SELECT group_concat(value, ' ') FROM json_each(v.topics) WHERE value <> 'general'),
       'k' || lower(hex(v.scope))
FROM versions v WHERE v.status = 'ACTIVE';
