-- StackJournal PostgreSQL schema version 4: presented destinations beside the stacks.
--
-- A destination a state presents (a `@Presents` property holding a sheet, an alert, a child) is
-- journaled as a record at the path of the property, like a stack holding one element: `#0`,
-- what is presented, with next ID 1. Its rows are those of a stack, in `stacks` and
-- `stack_elements`, marked `presentation`; the record appears when something is presented and
-- disappears when it is dismissed, as each entry's delta says (a change marked
-- `"presentation": true`). Snapshots list such records among their stacks, marked the same way.
-- The rules are `StackChange.fit`'s, and the cases of `Tests/Fixtures/stack-delta-corpus.json`
-- check that `apply_stack_change` follows them.
--
-- Every existing row is a stack: the column is added with false, and every entry is kept as it
-- is. `apply_stack_change` checks the mark, and `create_session` writes it from the initial
-- stacks; their signatures are unchanged.

ALTER TABLE stacks ADD COLUMN presentation boolean NOT NULL DEFAULT false;

CREATE OR REPLACE FUNCTION apply_stack_change(p_session text, c jsonb, reordered boolean)
RETURNS void
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
DECLARE
  v_path text := c ->> 'path';
  v_next bigint := (c ->> 'nextID')::bigint;
  v_old bigint;
  v_count bigint;
  v_distinct bigint;
  v_listed bigint;
  v_below boolean;
  v_presentation boolean := coalesce((c ->> 'presentation')::boolean, false);
  v_kind boolean;
BEGIN
  -- A presentation's change meets a presentation or nothing, a stack's a stack or nothing; a
  -- presentation holds #0 alone, with next ID 1.
  SELECT presentation INTO v_kind FROM stacks WHERE session = p_session AND path = v_path;
  IF FOUND AND v_kind <> v_presentation THEN
    RAISE EXCEPTION USING ERRCODE = 'SJ422', DETAIL = v_path,
      MESSAGE = CASE WHEN v_presentation
        THEN 'changes it as a presentation, but it is a stack'
        ELSE 'changes it as a stack, but it is a presentation' END;
  END IF;
  IF v_presentation AND NOT (c ->> 'removed')::boolean
    AND (v_next <> 1 OR (c -> 'ids') <> '[0]'::jsonb)
  THEN
    RAISE EXCEPTION USING ERRCODE = 'SJ422', DETAIL = v_path,
      MESSAGE = format('leaves it holding %s with next ID %s, not #0 alone with next ID 1',
        c -> 'ids', v_next);
  END IF;

  -- Pops: each ID once, each held.
  SELECT count(*), count(DISTINCT value::bigint) INTO v_listed, v_distinct
    FROM jsonb_array_elements_text(c -> 'popped');
  IF v_distinct <> v_listed THEN
    RAISE EXCEPTION USING ERRCODE = 'SJ422', DETAIL = v_path, MESSAGE = 'pops an ID twice';
  END IF;

  IF (c ->> 'removed')::boolean THEN
    DELETE FROM stack_elements WHERE session = p_session AND path = v_path
      AND id IN (SELECT value::bigint FROM jsonb_array_elements_text(c -> 'popped'));
    GET DIAGNOSTICS v_count = ROW_COUNT;
    IF v_count <> v_listed THEN
      RAISE EXCEPTION USING ERRCODE = 'SJ422', DETAIL = v_path,
        MESSAGE = 'pops an ID the stack does not hold';
    END IF;
    PERFORM 1 FROM stack_elements WHERE session = p_session AND path = v_path LIMIT 1;
    IF FOUND THEN
      RAISE EXCEPTION USING ERRCODE = 'SJ422', DETAIL = v_path,
        MESSAGE = 'removes the stack without popping every element it holds';
    END IF;
    DELETE FROM stacks WHERE session = p_session AND path = v_path;
    GET DIAGNOSTICS v_count = ROW_COUNT;
    IF v_count <> 1 THEN
      RAISE EXCEPTION USING ERRCODE = 'SJ422', DETAIL = v_path,
        MESSAGE = 'removes a stack that does not exist';
    END IF;
    RETURN;
  END IF;

  -- A stack that does not exist is an empty one, with no next ID to keep.
  SELECT next_id INTO v_old FROM stacks WHERE session = p_session AND path = v_path;
  IF NOT FOUND THEN
    INSERT INTO stacks (session, path, next_id, presentation)
      VALUES (p_session, v_path, v_next, v_presentation);
  ELSIF v_next < v_old THEN
    RAISE EXCEPTION USING ERRCODE = 'SJ422', DETAIL = v_path,
      MESSAGE = format('moves the next ID back from #%s to #%s', v_old, v_next);
  ELSIF v_next <> v_old THEN
    UPDATE stacks SET next_id = v_next WHERE session = p_session AND path = v_path;
  END IF;

  DELETE FROM stack_elements WHERE session = p_session AND path = v_path
    AND id IN (SELECT value::bigint FROM jsonb_array_elements_text(c -> 'popped'));
  GET DIAGNOSTICS v_count = ROW_COUNT;
  IF v_count <> v_listed THEN
    RAISE EXCEPTION USING ERRCODE = 'SJ422', DETAIL = v_path,
      MESSAGE = 'pops an ID the stack does not hold';
  END IF;

  -- Changes: each element held, after the pops, and changed once.
  SELECT count(*), count(DISTINCT (p ->> 'id')::bigint) INTO v_listed, v_distinct
    FROM jsonb_array_elements(c -> 'changed') AS p;
  IF v_distinct <> v_listed THEN
    RAISE EXCEPTION USING ERRCODE = 'SJ422', DETAIL = v_path, MESSAGE = 'changes an ID twice';
  END IF;
  UPDATE stack_elements s SET case_name = p ->> 'caseName', state = p ->> 'state'
    FROM jsonb_array_elements(c -> 'changed') AS p
    WHERE s.session = p_session AND s.path = v_path AND s.id = (p ->> 'id')::bigint;
  GET DIAGNOSTICS v_count = ROW_COUNT;
  IF v_count <> v_listed THEN
    RAISE EXCEPTION USING ERRCODE = 'SJ422', DETAIL = v_path,
      MESSAGE = 'changes an ID the stack does not hold';
  END IF;

  -- Pushes: each ID neither held after the pops nor pushed twice (an ID popped earlier, below
  -- the next ID, may be pushed again). Their positions are set with the others' below.
  INSERT INTO stack_elements (session, path, id, position, case_name, state)
    SELECT p_session, v_path, (p ->> 'id')::bigint, 0, p ->> 'caseName', p ->> 'state'
    FROM jsonb_array_elements(c -> 'pushed') AS p
    ON CONFLICT DO NOTHING;
  GET DIAGNOSTICS v_count = ROW_COUNT;
  IF v_count <> jsonb_array_length(c -> 'pushed') THEN
    RAISE EXCEPTION USING ERRCODE = 'SJ422', DETAIL = v_path,
      MESSAGE = 'pushes an ID the stack already holds, or one twice';
  END IF;

  -- The IDs after the change: each once, each below the next ID, and exactly the elements held.
  SELECT count(*), count(DISTINCT value::bigint), coalesce(bool_and(value::bigint < v_next), true)
    INTO v_listed, v_distinct, v_below
    FROM jsonb_array_elements_text(c -> 'ids');
  IF v_distinct <> v_listed THEN
    RAISE EXCEPTION USING ERRCODE = 'SJ422', DETAIL = v_path,
      MESSAGE = 'lists an ID twice after the change';
  END IF;
  IF NOT v_below THEN
    RAISE EXCEPTION USING ERRCODE = 'SJ422', DETAIL = v_path,
      MESSAGE = format('holds an ID not below the next ID #%s', v_next);
  END IF;
  SELECT count(*), count(i.value) INTO v_count, v_distinct
    FROM stack_elements s
    LEFT JOIN jsonb_array_elements_text(c -> 'ids') AS i ON s.id = i.value::bigint
    WHERE s.session = p_session AND s.path = v_path;
  IF v_count <> v_listed OR v_distinct <> v_listed THEN
    RAISE EXCEPTION USING ERRCODE = 'SJ422', DETAIL = v_path,
      MESSAGE = format('lists %s IDs after the change, not the %s elements the stack holds',
        v_listed, v_count);
  END IF;

  -- Every element at its position in the IDs after the change, where it is not already.
  UPDATE stack_elements s SET position = i.ordinality - 1
    FROM jsonb_array_elements_text(c -> 'ids') WITH ORDINALITY AS i(value, ordinality)
    WHERE s.session = p_session AND s.path = v_path AND s.id = i.value::bigint
      AND s.position <> i.ordinality - 1;
END;
$$;

CREATE OR REPLACE FUNCTION create_session(
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
    INSERT INTO stacks (session, path, next_id, presentation)
      VALUES (p_id, s ->> 'path', (s ->> 'nextID')::bigint,
        coalesce((s ->> 'presentation')::boolean, false));
    INSERT INTO stack_elements (session, path, id, position, case_name, state)
      SELECT p_id, s ->> 'path', (e ->> 'id')::bigint, (ordinality - 1)::integer,
        e ->> 'caseName', e ->> 'state'
      FROM jsonb_array_elements(s -> 'elements') WITH ORDINALITY AS t(e, ordinality);
  END LOOP;
END;
$$;
