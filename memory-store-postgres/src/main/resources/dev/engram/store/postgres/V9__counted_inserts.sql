-- The statements that insert versions and topic-index rows add them to scope_counts and topic_counts
-- themselves, once per statement and counter row, so the counting triggers of schema 6 and 8 no longer
-- fire on inserts: a batch that inserts a thousand versions in one statement then adds to each counter
-- row once instead of calling a trigger function per row, and a single write runs plain SQL instead of
-- two trigger calls. Status changes and deletions stay counted by the per-row triggers.

DROP TRIGGER ${prefix}versions_count ON ${schema}${prefix}versions;
CREATE TRIGGER ${prefix}versions_count
  AFTER DELETE OR UPDATE OF status ON ${schema}${prefix}versions
  FOR EACH ROW EXECUTE PROCEDURE ${schema}${prefix}count_active_versions();

DROP TRIGGER ${prefix}version_topics_count ON ${schema}${prefix}version_topics;
CREATE TRIGGER ${prefix}version_topics_count
  AFTER DELETE OR UPDATE OF active ON ${schema}${prefix}version_topics
  FOR EACH ROW EXECUTE PROCEDURE ${schema}${prefix}count_version_topics();

-- No statement filters or sorts on an event's body or on these version columns, so the planner needs no
-- statistics of them; gathering them was most of the cost of the store's periodic ANALYZE (a JSON
-- document per event, arrays and text per version).
ALTER TABLE ${schema}${prefix}events ALTER COLUMN body SET STATISTICS 0;
ALTER TABLE ${schema}${prefix}versions
  ALTER COLUMN content SET STATISTICS 0,
  ALTER COLUMN previous_version_id SET STATISTICS 0,
  ALTER COLUMN disclosure SET STATISTICS 0,
  ALTER COLUMN glossary SET STATISTICS 0,
  ALTER COLUMN source SET STATISTICS 0,
  ALTER COLUMN evidence SET STATISTICS 0,
  ALTER COLUMN superseded_by SET STATISTICS 0,
  ALTER COLUMN created_at SET STATISTICS 0,
  ALTER COLUMN updated_at SET STATISTICS 0,
  ALTER COLUMN created_in_revision SET STATISTICS 0;
