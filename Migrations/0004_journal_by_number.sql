-- StackJournal schema version 4: the journal keyed by one integer, so an append writes about
-- half the pages.
--
-- `journal` was a WITHOUT ROWID table keyed by (session, sequence): an index b-tree, whose
-- leaves SQLite splits half-and-half among their siblings even when every insert is at the end
-- of a session, and whose cells spill into overflow pages above about 1,000 bytes. A rowid
-- table appended at the end of its key fills its last leaf and starts a new one (SQLite's quick
-- balance), and keeps cells up to about 4,000 bytes in the leaf.
--
-- * Each session gets a stable integer `number` (1, 2, 3, …), unique. Existing sessions are
--   numbered in the order the journal lists them (`created_at`, then `id`); a new session gets
--   the greatest number plus one, in the transaction that inserts it. The column is added, not
--   the table rebuilt: `sessions` is the parent of every other table's foreign key.
-- * `journal` becomes a rowid table keyed by `key = number * 4294967296 + sequence`: one
--   session's entries are contiguous and in sequence order, and an append to a session is an
--   insert at the end of its key range (at the end of the table for the newest session). A
--   sequence is 1 … 4294967295; the writer refuses a greater one rather than make a key in the
--   next session's range.
-- * `session_number` and `sequence` are VIRTUAL generated columns computed from the key: they
--   cost no byte on the disk and keep the table readable with `sqlite3`. The journal's queries
--   never filter on them, only on a range of keys.
-- * `session_number` is not a foreign key: with one, deleting a session makes SQLite look for
--   journal rows of that number, and without an index on the column (one more b-tree for every
--   append to write) that is a scan of the whole journal per session deleted. The journal's
--   writer deletes a session's entries (by their range of keys) before the session, and
--   `verify` reports entries whose number names no session.
-- * `latest_at` and the partial index `journal_recorded_late` keep their meaning (schema 3);
--   the index is on (session_number, recorded_at, key).
--
-- Rows are copied as they are. A row this layout cannot hold (a sequence outside 1 … 4294967295
-- or a session with no row, which only a hand edit makes) fails the copy's check, and the
-- migration is rolled back, leaving the file as it was.

ALTER TABLE sessions ADD COLUMN number INTEGER NOT NULL DEFAULT 0;

UPDATE sessions SET number = ordered.number
  FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS number FROM sessions) AS ordered
  WHERE sessions.id = ordered.id;

CREATE UNIQUE INDEX sessions_by_number ON sessions (number);

CREATE TABLE journal_v4 (
  key INTEGER PRIMARY KEY
    CONSTRAINT key_of_a_session_and_a_sequence
    CHECK (key >= 4294967296 AND (key & 4294967295) >= 1),
  recorded_at TEXT NOT NULL,
  latest_at TEXT NOT NULL CHECK (latest_at >= recorded_at),
  type TEXT NOT NULL,
  version INTEGER NOT NULL,
  payload TEXT NOT NULL,
  delta TEXT NOT NULL,
  session_number INTEGER NOT NULL GENERATED ALWAYS AS (key >> 32) VIRTUAL,
  sequence INTEGER NOT NULL GENERATED ALWAYS AS (key & 4294967295) VIRTUAL
);

INSERT INTO journal_v4 (key, recorded_at, latest_at, type, version, payload, delta)
  SELECT
    CASE WHEN s.number >= 1 AND j.sequence BETWEEN 1 AND 4294967295
      THEN s.number * 4294967296 + j.sequence ELSE 0 END,
    j.recorded_at, j.latest_at, j.type, j.version, j.payload, j.delta
  FROM journal j LEFT JOIN sessions s ON s.id = j.session
  ORDER BY j.session, j.sequence;

DROP INDEX journal_recorded_late;
DROP TABLE journal;
ALTER TABLE journal_v4 RENAME TO journal;
CREATE INDEX journal_recorded_late ON journal (session_number, recorded_at, key)
  WHERE recorded_at < latest_at;
