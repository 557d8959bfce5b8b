-- StackJournal schema version 1.
--
-- Plain SQL that never mentions the application's types. Once shipped, this file never changes:
-- add 0002_….sql instead. The bookkeeping table `schema_migrations` and the file's
-- `application_id` / `user_version` are written by the migrator, not here.
--
-- Conventions: JSON is stored as TEXT; times are ISO-8601 UTC text with milliseconds
-- ('2025-01-31T09:30:00.000Z'); a session's sequence 0 is its initial state.

-- One navigation history per row. `head_sequence` is the sequence of its last journal entry
-- (0 before the first one). A fork names the session and sequence it started from.
CREATE TABLE sessions (
  id TEXT NOT NULL PRIMARY KEY,
  created_at TEXT NOT NULL,
  metadata TEXT,
  head_sequence INTEGER NOT NULL DEFAULT 0 CHECK (head_sequence >= 0),
  forked_from TEXT,
  forked_at INTEGER CHECK (forked_at IS NULL OR forked_at >= 0)
);

-- The journal: every action of a session, numbered 1, 2, 3, … with no gaps. `type` is the
-- action's case path, `version` the app's payload version, `payload` the action as JSON and
-- `delta` what the action did to each stack (pushed, popped, changed elements).
CREATE TABLE journal (
  session TEXT NOT NULL REFERENCES sessions (id),
  sequence INTEGER NOT NULL CHECK (sequence >= 1),
  recorded_at TEXT NOT NULL,
  type TEXT NOT NULL,
  version INTEGER NOT NULL,
  payload TEXT NOT NULL,
  delta TEXT NOT NULL,
  PRIMARY KEY (session, sequence)
);

-- "Which entry was the head at 10:42?"
CREATE INDEX journal_by_time ON journal (session, recorded_at, sequence);

-- The full encoded state of a session at a sequence, and its stacks, so a restore starts near.
CREATE TABLE snapshots (
  session TEXT NOT NULL REFERENCES sessions (id),
  sequence INTEGER NOT NULL CHECK (sequence >= 0),
  version INTEGER NOT NULL,
  state TEXT NOT NULL,
  stacks TEXT NOT NULL,
  recorded_at TEXT NOT NULL,
  PRIMARY KEY (session, sequence)
);

-- The stacks at the head of each session, one row per stack, keyed by the stack's path in the
-- state ('path', 'tabs[1].path', 'path[#3].counter.path'). `next_id` is the generation the
-- stack hands out next.
CREATE TABLE stacks (
  session TEXT NOT NULL REFERENCES sessions (id),
  path TEXT NOT NULL,
  next_id INTEGER NOT NULL CHECK (next_id >= 0),
  PRIMARY KEY (session, path)
);

-- The elements of those stacks: generational ID, position from the bottom (0), the case name of
-- an enum element ('counter') and the element's state as JSON.
CREATE TABLE stack_elements (
  session TEXT NOT NULL,
  path TEXT NOT NULL,
  id INTEGER NOT NULL CHECK (id >= 0),
  position INTEGER NOT NULL CHECK (position >= 0),
  case_name TEXT,
  state TEXT NOT NULL,
  PRIMARY KEY (session, path, id),
  FOREIGN KEY (session, path) REFERENCES stacks (session, path)
);
