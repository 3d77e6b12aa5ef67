-- Active versions per (scope, topic), kept by a trigger on the topic index, so reading a scope's topics
-- (which every write that shows the reasoner its context does) costs the same at any scope size instead
-- of counting the scope's rows each time. Writers of one scope already serialize on its head row, so the
-- counter rows add no contention across scopes.
CREATE TABLE ${schema}${prefix}topic_counts (
  scope        text COLLATE "C" NOT NULL,
  topic        text COLLATE "C" NOT NULL,
  active_count integer NOT NULL,
  PRIMARY KEY (scope, topic)
);

INSERT INTO ${schema}${prefix}topic_counts (scope, topic, active_count)
  SELECT scope, topic, count(*) FROM ${schema}${prefix}version_topics WHERE active GROUP BY scope, topic;

CREATE FUNCTION ${schema}${prefix}count_version_topics() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.active THEN
    UPDATE ${schema}${prefix}topic_counts SET active_count = active_count - 1
      WHERE scope = OLD.scope AND topic = OLD.topic;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.active THEN
    INSERT INTO ${schema}${prefix}topic_counts AS c (scope, topic, active_count) VALUES (NEW.scope, NEW.topic, 1)
      ON CONFLICT (scope, topic) DO UPDATE SET active_count = c.active_count + 1;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER ${prefix}version_topics_count
  AFTER INSERT OR DELETE OR UPDATE OF active ON ${schema}${prefix}version_topics
  FOR EACH ROW EXECUTE PROCEDURE ${schema}${prefix}count_version_topics();
