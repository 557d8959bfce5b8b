#!/usr/bin/env python3
"""Write-ahead-log frames per commit of the journal table alone, for a few layouts: what a
schema change could save before one is written.

    benchmarks/journal-pages.py [COUNT]

Inserts COUNT rows (2,000 by default) into each layout, one commit each, with automatic
checkpoints off, and divides the log's frames by COUNT. Rows are 450 to 1,100 bytes, as a
journal row of `stackjournal-bench record` at depth 20 (a quarter of them a push, whose payload
and pushed element make the row longest); times grow with the sequence.
"""
import os
import random
import sqlite3
import sys
import tempfile

COLUMNS = ("session TEXT NOT NULL, sequence INTEGER NOT NULL, recorded_at TEXT NOT NULL, "
           "type TEXT NOT NULL, version INTEGER NOT NULL, payload TEXT NOT NULL, "
           "delta TEXT NOT NULL")
BY_TIME = "CREATE INDEX journal_by_time ON journal (session, recorded_at, sequence);"
LAYOUTS = [
    ("schema 2: WITHOUT ROWID, journal_by_time",
     f"CREATE TABLE journal ({COLUMNS}, PRIMARY KEY (session, sequence)) WITHOUT ROWID;"
     + BY_TIME),
    ("rowid table, primary-key index, journal_by_time",
     f"CREATE TABLE journal ({COLUMNS}, PRIMARY KEY (session, sequence));" + BY_TIME),
    ("schema 2 without journal_by_time",
     f"CREATE TABLE journal ({COLUMNS}, PRIMARY KEY (session, sequence)) WITHOUT ROWID;"),
    ("rowid table, primary-key index, no time index",
     f"CREATE TABLE journal ({COLUMNS}, PRIMARY KEY (session, sequence));"),
    ("rowid table keyed by one integer, no index",
     f"CREATE TABLE journal (key INTEGER PRIMARY KEY, {COLUMNS});"),
]


def frames_per_commit(schema, count, directory):
    path = os.path.join(directory, f"journal-{abs(hash(schema))}.sqlite")
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA journal_mode = WAL")
    connection.execute("PRAGMA wal_autocheckpoint = 0")
    connection.executescript(schema)
    generator = random.Random(1)
    for sequence in range(1, count + 1):
        size = generator.choice([450, 500, 550, 1100])
        connection.execute("BEGIN")
        connection.execute(
            "INSERT INTO journal (session, sequence, recorded_at, type, version, payload, delta) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            ("bench", sequence, f"2025-01-31T09:{sequence // 60 % 60:02}:{sequence % 60:02}.000Z",
             "path.element.article.scrolled", 1, "p" * (size // 2), "d" * (size // 2)))
        connection.execute("COMMIT")
    frames = (os.path.getsize(path + "-wal") - 32) / (4096 + 24)
    connection.close()
    return frames / count


count = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
with tempfile.TemporaryDirectory() as directory:
    for name, schema in LAYOUTS:
        print(f"{frames_per_commit(schema, count, directory):5.2f} frames per commit  {name}")
