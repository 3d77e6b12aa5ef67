-- Model usage (StoreCapability.MODEL_USAGE): per scope, day (UTC, as yyyy-mm-dd), provider, model and
-- reasoner job, the model calls the operations on the scope made, the tokens the server reported and the
-- calls that failed. Counters only: no content, no ids. Added to in place; erased with the scope.
CREATE TABLE model_usage (
  scope         TEXT NOT NULL,
  day           TEXT NOT NULL,
  provider      TEXT NOT NULL,
  model         TEXT NOT NULL,
  job           TEXT NOT NULL,
  calls         INTEGER NOT NULL CHECK (calls >= 0),
  input_tokens  INTEGER NOT NULL CHECK (input_tokens >= 0),
  output_tokens INTEGER NOT NULL CHECK (output_tokens >= 0),
  failures      INTEGER NOT NULL CHECK (failures >= 0 AND failures <= calls),
  PRIMARY KEY (scope, day, provider, model, job)
) WITHOUT ROWID;
