-- A topic counter row exists only while its count is above zero, as in the other stores: the row of a
-- topic whose last active version was retired, superseded or erased goes with it, so erasure leaves no
-- counter naming an erased topic (topics are user text). Rows already at zero are removed. Readers
-- join the counters with coalesce(…, 0), so a missing row reads as zero.

CREATE OR REPLACE FUNCTION ${schema}${prefix}count_version_topics() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.active THEN
    UPDATE ${schema}${prefix}topic_counts SET active_count = active_count - 1
      WHERE scope = OLD.scope AND topic = OLD.topic;
    DELETE FROM ${schema}${prefix}topic_counts
      WHERE scope = OLD.scope AND topic = OLD.topic AND active_count <= 0;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.active THEN
    INSERT INTO ${schema}${prefix}topic_counts AS c (scope, topic, active_count) VALUES (NEW.scope, NEW.topic, 1)
      ON CONFLICT (scope, topic) DO UPDATE SET active_count = c.active_count + 1;
  END IF;
  RETURN NULL;
END
$$;

DELETE FROM ${schema}${prefix}topic_counts WHERE active_count <= 0;
