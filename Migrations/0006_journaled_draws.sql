-- StackJournal schema version 6: what each entry's reducer drew, journaled with the entry.
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
-- the file holds get their head plus one, so those entries are known to replay, as they always
-- did, with the replaying process's dependencies. A session created since starts at 1.
--
-- Appends do not update `sessions.head_sequence` (schema 2): a session's head is the greater of
-- it and the sequence of its last entry.

ALTER TABLE journal ADD COLUMN draws TEXT;

ALTER TABLE sessions ADD COLUMN draws_from INTEGER NOT NULL DEFAULT 1
  CONSTRAINT draws_from_is_a_sequence CHECK (draws_from >= 1);

UPDATE sessions SET draws_from = 1 + max(head_sequence, coalesce(
  (SELECT j.sequence FROM journal j
    WHERE j.key BETWEEN sessions.number * 4294967296 AND sessions.number * 4294967296 + 4294967295
    ORDER BY j.key DESC LIMIT 1), 0));
