-- Model usage (StoreCapability.MODEL_USAGE): per scope, day (UTC), provider, model and reasoner job, the
-- model calls the operations on the scope made, the tokens the server reported and the calls that failed.
-- Counters only: no content, no ids. Added to in place; erased with the scope.
CREATE TABLE ${schema}${prefix}model_usage (
  scope         text COLLATE "C" NOT NULL,
  day           date NOT NULL,
  provider      text COLLATE "C" NOT NULL,
  model         text COLLATE "C" NOT NULL,
  job           text COLLATE "C" NOT NULL,
  calls         bigint NOT NULL CHECK (calls >= 0),
  input_tokens  bigint NOT NULL CHECK (input_tokens >= 0),
  output_tokens bigint NOT NULL CHECK (output_tokens >= 0),
  failures      bigint NOT NULL CHECK (failures >= 0 AND failures <= calls),
  PRIMARY KEY (scope, day, provider, model, job)
);
