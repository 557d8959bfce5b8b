-- StackJournal PostgreSQL schema version 5: what each entry's reducer drew, journaled with the
-- entry.
--
-- A recording store keeps, with each entry, the values its reducer drew from its dependencies
-- (UUIDs, dates, random words, an app's own journaled draws) in order, and the environment it
-- ran in (time zone, locale, calendar) when that changed: the JSON text of an `EntryDraws`,
-- `{"environment": {…}, "values": [{"uuid": "…"}, …]}`, in `journal.draws`. Replay hands the
-- values back, so the reducer reaches the state the user had. An entry that drew nothing and
-- ran in the environment of the entry before keeps NULL.
--
-- `sessions.draws_from` is the first sequence whose entry was written with its draws. Every
-- entry is kept as it is, and the entries written before this version hold none: the sessions
-- the journal holds get their head plus one, so those entries are known to replay, as they
-- always did, with the replaying process's dependencies. A session created since starts at 1.
--
-- `append_entry` and `append_entry_committed` take the draws as one more argument, written in
-- the entry's row in the same statement. The versions without it are dropped: a build that
-- calls them refuses this schema as newer than its own.

ALTER TABLE journal ADD COLUMN draws text;

ALTER TABLE sessions ADD COLUMN draws_from bigint NOT NULL DEFAULT 1
  CONSTRAINT draws_from_is_a_sequence CHECK (draws_from >= 1);

UPDATE sessions SET draws_from = head_sequence + 1;

DROP PROCEDURE append_entry_committed;
DROP FUNCTION append_entry;

-- Appends an entry after `p_expected` and returns its sequence, in the caller's transaction, as
-- version 1's did, with the entry's draws (`NULL` for none).
CREATE FUNCTION append_entry(
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
  p_draws text
)
RETURNS bigint
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
DECLARE
  v_sequence bigint;
  v_head bigint;
  c jsonb;
BEGIN
  UPDATE sessions SET head_sequence = head_sequence + 1
    WHERE id = p_session AND head_sequence = p_expected
    RETURNING head_sequence INTO v_sequence;
  IF NOT FOUND THEN
    SELECT head_sequence INTO v_head FROM sessions WHERE id = p_session;
    IF NOT FOUND THEN
      RAISE EXCEPTION USING ERRCODE = 'SJ404', MESSAGE = p_session;
    END IF;
    RAISE EXCEPTION USING ERRCODE = 'SJ409', MESSAGE = v_head::text;
  END IF;
  INSERT INTO journal (session, sequence, recorded_at, type, version, payload, delta, draws)
    VALUES (p_session, v_sequence, p_recorded_at, p_type, p_version, p_payload, p_delta,
      p_draws);
  FOR c IN SELECT value FROM jsonb_array_elements(p_delta::jsonb -> 'changes') LOOP
    PERFORM apply_stack_change(p_session, c, (c ->> 'path') = ANY (p_reordered));
  END LOOP;
  IF p_snapshot_state IS NOT NULL THEN
    INSERT INTO snapshots (session, sequence, version, state, stacks, recorded_at)
      VALUES (p_session, v_sequence, p_version, p_snapshot_state, p_snapshot_stacks,
        p_recorded_at)
      ON CONFLICT (session, sequence) DO NOTHING;
  END IF;
  RETURN v_sequence;
END;
$$;

-- `append_entry`, committed before its sequence is answered (see version 2).
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
      p_draws text,
      INOUT p_sequence bigint DEFAULT NULL
    )
    LANGUAGE plpgsql
    AS $body$
    BEGIN
      p_sequence := %I.append_entry(p_session, p_expected, p_recorded_at, p_type, p_version,
        p_payload, p_delta, p_reordered, p_snapshot_state, p_snapshot_stacks, p_draws);
      COMMIT;
    END
    $body$
  $procedure$, current_schema());
END
$migration$;
