-- StackJournal PostgreSQL schema version 1.
--
-- The same tables as the SQLite schema, in the journal's own PostgreSQL schema (the migrator sets
-- `search_path` to it). Plain SQL that never mentions the application's types; once shipped this
-- file never changes. `schema_migrations` and the schema's comment are written by the migrator.
--
-- Conventions, as in SQLite: JSON is stored as text, exactly as written (exports and `--json`
-- copy it as it is); times are ISO-8601 UTC text with milliseconds, whose text order is their
-- time order; identifiers and paths compare byte by byte (COLLATE "C"); sequence 0 is a
-- session's initial state.

-- One navigation history per row. `head_sequence` is the sequence of its last entry: every
-- append moves it by one under the row's lock, which is what makes racing writers take turns.
CREATE TABLE sessions (
  id text COLLATE "C" NOT NULL PRIMARY KEY,
  created_at text COLLATE "C" NOT NULL,
  metadata text,
  head_sequence bigint NOT NULL DEFAULT 0 CHECK (head_sequence >= 0),
  forked_from text COLLATE "C",
  forked_at bigint CHECK (forked_at IS NULL OR forked_at >= 0)
);

-- Every action of a session, numbered 1, 2, 3, … with no gaps, with what it did to each stack.
CREATE TABLE journal (
  session text COLLATE "C" NOT NULL REFERENCES sessions (id),
  sequence bigint NOT NULL CHECK (sequence >= 1),
  recorded_at text COLLATE "C" NOT NULL,
  type text NOT NULL,
  version integer NOT NULL,
  payload text NOT NULL,
  delta text NOT NULL,
  PRIMARY KEY (session, sequence)
);

-- "Which entry was the head at 10:42?"
CREATE INDEX journal_by_time ON journal (session, recorded_at, sequence);

-- The full encoded state of a session at a sequence, and its stacks, so a restore starts near.
CREATE TABLE snapshots (
  session text COLLATE "C" NOT NULL REFERENCES sessions (id),
  sequence bigint NOT NULL CHECK (sequence >= 0),
  version integer NOT NULL,
  state text NOT NULL,
  stacks text NOT NULL,
  recorded_at text COLLATE "C" NOT NULL,
  PRIMARY KEY (session, sequence)
);

-- The stacks at the head of each session, one row per stack, keyed by its path in the state.
CREATE TABLE stacks (
  session text COLLATE "C" NOT NULL REFERENCES sessions (id),
  path text COLLATE "C" NOT NULL,
  next_id bigint NOT NULL CHECK (next_id >= 0),
  PRIMARY KEY (session, path)
);

-- The elements of those stacks: generational ID, position from the bottom (0), case name, state.
CREATE TABLE stack_elements (
  session text COLLATE "C" NOT NULL,
  path text COLLATE "C" NOT NULL,
  id bigint NOT NULL CHECK (id >= 0),
  position integer NOT NULL CHECK (position >= 0),
  case_name text,
  state text NOT NULL,
  PRIMARY KEY (session, path, id),
  FOREIGN KEY (session, path) REFERENCES stacks (session, path)
);

-- Errors the functions raise, by SQLSTATE: SJ404 no such session; SJ409 the head is not the
-- expected sequence (the message is the head); SJ416 a sequence outside 0 through the head (the
-- message is the head); SJ422 a delta that does not fit the stack rows (the message says how,
-- the detail is the stack's path).

-- Applies one stack change of a delta (the JSON of a StackChange) to a session's stack rows,
-- checking that it fits them. `reordered`: the positions of the elements that stayed are
-- rewritten too.
CREATE FUNCTION apply_stack_change(p_session text, c jsonb, reordered boolean)
RETURNS void
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
DECLARE
  v_path text := c ->> 'path';
  v_next bigint := (c ->> 'nextID')::bigint;
  v_old bigint;
  v_count bigint;
  v_id bigint;
  v_position integer;
  e jsonb;
BEGIN
  IF (c ->> 'removed')::boolean THEN
    DELETE FROM stack_elements WHERE session = p_session AND path = v_path;
    GET DIAGNOSTICS v_count = ROW_COUNT;
    IF v_count <> jsonb_array_length(c -> 'popped') THEN
      RAISE EXCEPTION USING ERRCODE = 'SJ422', DETAIL = v_path, MESSAGE =
        format('removes %s elements, not those held', jsonb_array_length(c -> 'popped'));
    END IF;
    DELETE FROM stacks WHERE session = p_session AND path = v_path;
    GET DIAGNOSTICS v_count = ROW_COUNT;
    IF v_count <> 1 THEN
      RAISE EXCEPTION USING ERRCODE = 'SJ422', DETAIL = v_path,
        MESSAGE = 'removes a stack that does not exist';
    END IF;
    RETURN;
  END IF;

  SELECT next_id INTO v_old FROM stacks WHERE session = p_session AND path = v_path;
  IF NOT FOUND THEN
    IF jsonb_array_length(c -> 'popped') > 0 OR jsonb_array_length(c -> 'changed') > 0 THEN
      RAISE EXCEPTION USING ERRCODE = 'SJ422', DETAIL = v_path,
        MESSAGE = 'pops or changes elements of a stack that does not exist';
    END IF;
    INSERT INTO stacks (session, path, next_id) VALUES (p_session, v_path, v_next);
    SELECT count(DISTINCT (p ->> 'id')::bigint) INTO v_count
      FROM jsonb_array_elements(c -> 'pushed') AS p;
    IF v_count <> jsonb_array_length(c -> 'ids') THEN
      RAISE EXCEPTION USING ERRCODE = 'SJ422', DETAIL = v_path,
        MESSAGE = 'lists IDs after the change that it does not push';
    END IF;
    FOR v_id, v_position IN
      SELECT value::bigint, ordinality - 1 FROM jsonb_array_elements_text(c -> 'ids')
        WITH ORDINALITY
    LOOP
      SELECT p INTO e FROM jsonb_array_elements(c -> 'pushed') AS p
        WHERE (p ->> 'id')::bigint = v_id LIMIT 1;
      IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'SJ422', DETAIL = v_path,
          MESSAGE = format('lists #%s after the change, which it does not push', v_id);
      END IF;
      INSERT INTO stack_elements (session, path, id, position, case_name, state)
        VALUES (p_session, v_path, v_id, v_position, e ->> 'caseName', e ->> 'state')
        ON CONFLICT DO NOTHING;
      GET DIAGNOSTICS v_count = ROW_COUNT;
      IF v_count <> 1 THEN
        RAISE EXCEPTION USING ERRCODE = 'SJ422', DETAIL = v_path,
          MESSAGE = format('lists #%s twice after the change', v_id);
      END IF;
    END LOOP;
    RETURN;
  END IF;

  IF v_next < v_old THEN
    RAISE EXCEPTION USING ERRCODE = 'SJ422', DETAIL = v_path,
      MESSAGE = format('moves the next ID back from #%s to #%s', v_old, v_next);
  END IF;

  FOR v_id IN SELECT value::bigint FROM jsonb_array_elements_text(c -> 'popped') LOOP
    DELETE FROM stack_elements WHERE session = p_session AND path = v_path AND id = v_id;
    GET DIAGNOSTICS v_count = ROW_COUNT;
    IF v_count <> 1 THEN
      RAISE EXCEPTION USING ERRCODE = 'SJ422', DETAIL = v_path,
        MESSAGE = format('pops #%s, which the stack does not hold', v_id);
    END IF;
  END LOOP;

  FOR e IN SELECT value FROM jsonb_array_elements(c -> 'changed') LOOP
    v_id := (e ->> 'id')::bigint;
    SELECT max(ordinality) - 1 INTO v_position
      FROM jsonb_array_elements_text(c -> 'ids') WITH ORDINALITY WHERE value::bigint = v_id;
    IF v_position IS NULL THEN
      RAISE EXCEPTION USING ERRCODE = 'SJ422', DETAIL = v_path,
        MESSAGE = format('does not list #%s among the IDs after it', v_id);
    END IF;
    UPDATE stack_elements SET case_name = e ->> 'caseName', state = e ->> 'state',
        position = v_position
      WHERE session = p_session AND path = v_path AND id = v_id;
    GET DIAGNOSTICS v_count = ROW_COUNT;
    IF v_count <> 1 THEN
      RAISE EXCEPTION USING ERRCODE = 'SJ422', DETAIL = v_path,
        MESSAGE = format('changes #%s, which the stack does not hold', v_id);
    END IF;
  END LOOP;

  -- A push of an ID popped earlier (below the next ID) is accepted, as an explicit push is in
  -- the model; a push of an ID the stack holds is not.
  FOR e IN SELECT value FROM jsonb_array_elements(c -> 'pushed') LOOP
    v_id := (e ->> 'id')::bigint;
    SELECT max(ordinality) - 1 INTO v_position
      FROM jsonb_array_elements_text(c -> 'ids') WITH ORDINALITY WHERE value::bigint = v_id;
    IF v_position IS NULL THEN
      RAISE EXCEPTION USING ERRCODE = 'SJ422', DETAIL = v_path,
        MESSAGE = format('does not list #%s among the IDs after it', v_id);
    END IF;
    INSERT INTO stack_elements (session, path, id, position, case_name, state)
      VALUES (p_session, v_path, v_id, v_position, e ->> 'caseName', e ->> 'state')
      ON CONFLICT DO NOTHING;
    GET DIAGNOSTICS v_count = ROW_COUNT;
    IF v_count <> 1 THEN
      RAISE EXCEPTION USING ERRCODE = 'SJ422', DETAIL = v_path,
        MESSAGE = format('pushes #%s, which the stack already holds', v_id);
    END IF;
  END LOOP;

  IF reordered THEN
    FOR v_id, v_position IN
      SELECT value::bigint, ordinality - 1 FROM jsonb_array_elements_text(c -> 'ids')
        WITH ORDINALITY
      WHERE value::bigint NOT IN (
        SELECT (p ->> 'id')::bigint FROM jsonb_array_elements(c -> 'changed') AS p
        UNION ALL
        SELECT (p ->> 'id')::bigint FROM jsonb_array_elements(c -> 'pushed') AS p)
    LOOP
      UPDATE stack_elements SET position = v_position
        WHERE session = p_session AND path = v_path AND id = v_id;
      GET DIAGNOSTICS v_count = ROW_COUNT;
      IF v_count <> 1 THEN
        RAISE EXCEPTION USING ERRCODE = 'SJ422', DETAIL = v_path,
          MESSAGE = format('lists #%s after the change, which the stack does not hold', v_id);
      END IF;
    END LOOP;
  END IF;

  IF v_next <> v_old THEN
    UPDATE stacks SET next_id = v_next WHERE session = p_session AND path = v_path;
  END IF;
END;
$$;

-- Appends an entry after `p_expected` and returns its sequence, in the caller's transaction: one
-- statement for a whole append. Moves the head under the session row's lock (a racing writer
-- waits, then finds the head moved and gets SJ409), inserts the entry, applies the delta to the
-- stack rows and, when given, inserts the snapshot.
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
  p_snapshot_stacks text
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
  INSERT INTO journal (session, sequence, recorded_at, type, version, payload, delta)
    VALUES (p_session, v_sequence, p_recorded_at, p_type, p_version, p_payload, p_delta);
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

-- Creates a session whose sequence 0 is the given state: the session row, snapshot 0 and the
-- stack rows (`p_stacks`: the JSON of the StackRecords). A fork's source must hold the sequence.
CREATE FUNCTION create_session(
  p_id text,
  p_created_at text,
  p_metadata text,
  p_forked_from text,
  p_forked_at bigint,
  p_version integer,
  p_state text,
  p_stacks text
)
RETURNS void
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
DECLARE
  v_head bigint;
  s jsonb;
BEGIN
  IF p_forked_from IS NOT NULL THEN
    SELECT head_sequence INTO v_head FROM sessions WHERE id = p_forked_from;
    IF NOT FOUND THEN
      RAISE EXCEPTION USING ERRCODE = 'SJ404', MESSAGE = p_forked_from;
    END IF;
    IF p_forked_at < 0 OR p_forked_at > v_head THEN
      RAISE EXCEPTION USING ERRCODE = 'SJ416', MESSAGE = v_head::text;
    END IF;
  END IF;
  INSERT INTO sessions (id, created_at, metadata, head_sequence, forked_from, forked_at)
    VALUES (p_id, p_created_at, p_metadata, 0, p_forked_from, p_forked_at);
  INSERT INTO snapshots (session, sequence, version, state, stacks, recorded_at)
    VALUES (p_id, 0, p_version, p_state, p_stacks, p_created_at);
  FOR s IN SELECT value FROM jsonb_array_elements(p_stacks::jsonb) LOOP
    INSERT INTO stacks (session, path, next_id)
      VALUES (p_id, s ->> 'path', (s ->> 'nextID')::bigint);
    INSERT INTO stack_elements (session, path, id, position, case_name, state)
      SELECT p_id, s ->> 'path', (e ->> 'id')::bigint, (ordinality - 1)::integer,
        e ->> 'caseName', e ->> 'state'
      FROM jsonb_array_elements(s -> 'elements') WITH ORDINALITY AS t(e, ordinality);
  END LOOP;
END;
$$;
