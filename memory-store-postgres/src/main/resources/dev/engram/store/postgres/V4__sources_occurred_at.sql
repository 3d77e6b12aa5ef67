-- Sources by event time: sources(grants, SourceQuery.between(from, to)) reads the records of one scope
-- whose (occurred_s, occurred_n) lies in a range; without this index that is a scan of the scope.
CREATE INDEX ${prefix}sources_occurred_idx ON ${schema}${prefix}sources (scope, occurred_s, occurred_n);
