-- StackJournal schema version 2: fewer pages written per appended action.
--
-- An append used to touch about seven b-tree pages: the journal row and its separate primary-key
-- index, `journal_by_time`, the element row and its separate primary-key index, the session's
-- head, and the stack's next ID. Here:
--
-- * `journal` and `stack_elements` become WITHOUT ROWID tables, stored in the order of their
--   primary key: a row and its key are one b-tree, so one page instead of two.
-- * `sessions.head_sequence` is no longer updated by every append: a session's head is the
--   greater of it and the last sequence in `journal` (found through the primary key). It is
--   still written when a session is created, imported or compacted.
--
-- `journal_by_time` stays: an entry's time comes from the recording machine's clock, which can
-- go back, so time lookups cannot rely on the sequence order. Rows are copied as they are.

CREATE TABLE journal_v2 (
  session TEXT NOT NULL REFERENCES sessions (id),
  sequence INTEGER NOT NULL CHECK (sequence >= 1),
  recorded_at TEXT NOT NULL,
  type TEXT NOT NULL,
  version INTEGER NOT NULL,
  payload TEXT NOT NULL,
  delta TEXT NOT NULL,
  PRIMARY KEY (session, sequence)
) WITHOUT ROWID;

INSERT INTO journal_v2 (session, sequence, recorded_at, type, version, payload, delta)
  SELECT session, sequence, recorded_at, type, version, payload, delta FROM journal;

DROP INDEX journal_by_time;
DROP TABLE journal;
ALTER TABLE journal_v2 RENAME TO journal;
CREATE INDEX journal_by_time ON journal (session, recorded_at, sequence);

CREATE TABLE stack_elements_v2 (
  session TEXT NOT NULL,
  path TEXT NOT NULL,
  id INTEGER NOT NULL CHECK (id >= 0),
  position INTEGER NOT NULL CHECK (position >= 0),
  case_name TEXT,
  state TEXT NOT NULL,
  PRIMARY KEY (session, path, id),
  FOREIGN KEY (session, path) REFERENCES stacks (session, path)
) WITHOUT ROWID;

INSERT INTO stack_elements_v2 (session, path, id, position, case_name, state)
  SELECT session, path, id, position, case_name, state FROM stack_elements;

DROP TABLE stack_elements;
ALTER TABLE stack_elements_v2 RENAME TO stack_elements;
