-- StackJournal PostgreSQL schema version 2: an append whose answer comes after its commit.
--
-- A statement sent alone commits after its result is written back, and a backend that stops at
-- that moment (an immediate shutdown, a terminated backend) still sends the result before it
-- closes the connection: a client reading `SELECT append_entry(…)`'s sequence could take as done
-- an append that never committed. Running it in `BEGIN`…`COMMIT` costs two more round trips.
-- `CALL append_entry_committed(…)` runs `append_entry` and commits inside the procedure, so the
-- sequence it returns is written only once the commit is done.
--
-- A procedure that commits cannot carry a `SET search_path` clause, so `append_entry` is named
-- with the journal's schema, written in when this migration runs (the migrator sets
-- `search_path` to that schema).

DO $migration$
BEGIN
  EXECUTE format($procedure$
    CREATE PROCEDURE append_entry_committed(
      p_session text,
      p_expected bigint,
      p_recorded_at text,
      p_type text,
      p_version integer,
      p_payload text,
      p_delta text,
      p_reordered text[],
      p_snapshot_state text,
      p_snapshot_stacks text,
      INOUT p_sequence bigint DEFAULT NULL
    )
    LANGUAGE plpgsql
    AS $body$
    BEGIN
      p_sequence := %I.append_entry(p_session, p_expected, p_recorded_at, p_type, p_version,
        p_payload, p_delta, p_reordered, p_snapshot_state, p_snapshot_stacks);
      COMMIT;
    END
    $body$
  $procedure$, current_schema());
END
$migration$;
