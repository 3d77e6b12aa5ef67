-- Leased work claims (StoreCapability.WORK_CLAIMS): maintenance runners in every process that opens the
-- file claim dirty (scope, topic) pairs and scopes with pending sources here before they curate or flush
-- them. A claim is taken in a write transaction (BEGIN IMMEDIATE), so two claimers never hold one item
-- at once; it ends when released (its token must match) or when claimed_until (milliseconds since the
-- epoch, by the claiming process's clock) has passed. topic is '' for a PENDING_SOURCES claim. Rows of an
-- erased scope are deleted with it.
CREATE TABLE work_claims (
  kind          TEXT NOT NULL CHECK (kind IN ('DIRTY_TOPIC', 'PENDING_SOURCES')),
  scope         TEXT NOT NULL,
  topic         TEXT NOT NULL,
  worker_id     TEXT NOT NULL,
  token         TEXT NOT NULL,
  claimed_until INTEGER NOT NULL,
  PRIMARY KEY (kind, scope, topic)
) WITHOUT ROWID;
