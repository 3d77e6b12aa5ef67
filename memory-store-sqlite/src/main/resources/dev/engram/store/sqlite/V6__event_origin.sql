-- Where each change came from (dev.engram.Origin: APPLICATION, AGENT, MCP, CONSOLE, CURATOR, IMPORT).
-- Events written before this version have none; readers infer it from the actor.
ALTER TABLE events ADD COLUMN origin TEXT;
