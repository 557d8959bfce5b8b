-- StackJournal PostgreSQL schema version 3: every stack change is checked as the delta rules
-- say (`StackChange.fit` in Swift; the cases of `Tests/Fixtures/stack-delta-corpus.json`).
--
-- Version 1's `apply_stack_change` checked what the statements it ran happened to see, and let
-- through changes the rules refuse: IDs after the change that leave out an element the stack
-- keeps, name one it does not hold, name one twice, or are not below the next ID; a new stack
-- pushing one ID twice; a removed stack whose popped IDs are not exactly those it held. It
-- rewrote the positions of the elements that stayed only when the caller named the stack as
-- reordered. This version checks all of it, and rewrites every position that moved whatever the
-- caller names: `reordered` stays in the signature, which `append_entry` calls, and is not read.

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
BEGIN
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
    INSERT INTO stacks (session, path, next_id) VALUES (p_session, v_path, v_next);
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
