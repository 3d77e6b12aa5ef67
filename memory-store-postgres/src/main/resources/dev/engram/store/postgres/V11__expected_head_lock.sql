-- Locks a scope's head for a transaction whose writes were prepared before the lock, on the store's
-- expectation of the head and of the content hashes (no active holder of any of them): the function
-- takes the head's row lock exactly as the transaction's own lock does, then checks both expectations
-- with what is committed once the lock is granted (each statement of a volatile function reads with its
-- own snapshot). It returns the head when both hold and raises SQLSTATE EH001 otherwise, so the
-- prepared writes that follow it in the same round trip never run and the store starts the
-- transaction again the ordinary way. A single hash is looked up by equality, a statement planned
-- once per connection; several are looked up in one statement over the array (planned for each array,
-- as the planner estimates an array parameter's generic plan for more elements than one).
CREATE FUNCTION ${schema}${prefix}lock_expected_head(p_scope text, p_head bigint, p_hashes text[])
RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  locked bigint;
BEGIN
  SELECT head INTO locked FROM ${schema}${prefix}scope_heads WHERE scope = p_scope FOR UPDATE;
  IF locked IS DISTINCT FROM p_head THEN
    RAISE EXCEPTION 'the head of % is %, not the expected %', p_scope, coalesce(locked::text, 'missing'), p_head
      USING ERRCODE = 'EH001';
  END IF;
  IF cardinality(p_hashes) = 1 THEN
    IF EXISTS (SELECT 1 FROM ${schema}${prefix}versions
               WHERE scope = p_scope AND content_hash = p_hashes[1] AND status = 'ACTIVE') THEN
      RAISE EXCEPTION 'an active version of % holds the expected-new content hash', p_scope
        USING ERRCODE = 'EH001';
    END IF;
  ELSIF cardinality(p_hashes) > 1 THEN
    IF EXISTS (SELECT 1 FROM ${schema}${prefix}versions
               WHERE scope = p_scope AND content_hash = ANY (p_hashes) AND status = 'ACTIVE') THEN
      RAISE EXCEPTION 'an active version of % holds an expected-new content hash', p_scope
        USING ERRCODE = 'EH001';
    END IF;
  END IF;
  RETURN locked;
END
$$;
