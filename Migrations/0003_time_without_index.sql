-- StackJournal schema version 3: no index written with every appended action to find entries
-- by time.
--
-- `journal_by_time` was a second b-tree that every append wrote (about one page in five of a
-- commit). An entry's time comes from the recording machine's clock, so it usually grows with
-- the sequence but can go back. Here each entry keeps `latest_at`, the latest `recorded_at` of
-- the entry and every earlier one of its session: it never goes down along the sequence, so the
-- last entry recorded at or before a time is found by a binary search on the primary key. The
-- rare entries recorded earlier than an earlier one (`recorded_at < latest_at`) are in a
-- partial index, `journal_recorded_late`, which an append whose clock did not go back never
-- writes. Rows are copied as they are; `latest_at` is computed for each session in sequence
-- order.

CREATE TABLE journal_v3 (
  session TEXT NOT NULL REFERENCES sessions (id),
  sequence INTEGER NOT NULL CHECK (sequence >= 1),
  recorded_at TEXT NOT NULL,
  latest_at TEXT NOT NULL CHECK (latest_at >= recorded_at),
  type TEXT NOT NULL,
  version INTEGER NOT NULL,
  payload TEXT NOT NULL,
  delta TEXT NOT NULL,
  PRIMARY KEY (session, sequence)
) WITHOUT ROWID;

INSERT INTO journal_v3 (session, sequence, recorded_at, latest_at, type, version, payload, delta)
  SELECT session, sequence, recorded_at,
    max(recorded_at) OVER (PARTITION BY session ORDER BY sequence ROWS UNBOUNDED PRECEDING),
    type, version, payload, delta
  FROM journal;

DROP INDEX journal_by_time;
DROP TABLE journal;
ALTER TABLE journal_v3 RENAME TO journal;
CREATE INDEX journal_recorded_late ON journal (session, recorded_at, sequence)
  WHERE recorded_at < latest_at;
