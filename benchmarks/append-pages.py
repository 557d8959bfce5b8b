#!/usr/bin/env python3
"""Which pages an append writes, by table: the write-ahead-log frames of a RecordingStore's
appends at NORMAL, each frame's page matched to the table or index it belongs to.

    benchmarks/append-pages.py [DEPTH] [COUNT]

Runs `stackjournal-bench instructions --depths DEPTH --count COUNT --keep DIR` (DEPTH 20 and
COUNT 500 by default) under `strace -e pwrite64`, reads the page number from each frame header
SQLite writes to the log (24 bytes, the page number first), and matches it to a table with
SQLite's `dbstat` on the journal the benchmark kept. Pages freed and reused by another table
during the run are counted under their last owner. The session's creation is counted too: use a
COUNT of a few hundred or more. Needs strace and a release build (BENCH names another binary).
"""
import collections
import os
import re
import sqlite3
import subprocess
import sys
import tempfile

depth = int(sys.argv[1]) if len(sys.argv) > 1 else 20
count = int(sys.argv[2]) if len(sys.argv) > 2 else 500
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
bench = os.environ.get("BENCH", os.path.join(root, ".build/release/stackjournal-bench"))
if not os.access(bench, os.X_OK):
    sys.exit(f"no benchmark binary at {bench}: "
             "run `swift build -c release --product stackjournal-bench` or set BENCH")

with tempfile.TemporaryDirectory() as scratch:
    kept = os.path.join(scratch, "journals")
    trace = os.path.join(scratch, "trace")
    subprocess.run(
        ["strace", "-f", "-y", "-x", "-s", "8", "-e", "trace=pwrite64", "-o", trace,
         bench, "instructions", "--depths", str(depth), "--count", str(count), "--keep", kept],
        check=True, stdout=subprocess.DEVNULL)
    journal = os.path.join(kept, f"depth-{depth}.sqlite")
    # pwrite64(7</…/depth-20.sqlite-wal>, "\x00\x00\x00\x11\x00…"..., 24, 4152) = 24
    header = re.compile(r'<([^>]*)>, "((?:\\x[0-9a-f]{2})+)"(?:\.\.\.)?, 24, ')
    pages = []
    with open(trace) as lines:
        for line in lines:
            match = header.search(line)
            # strace names the file by its resolved path.
            if match and match.group(1) == os.path.realpath(journal) + "-wal":
                first = bytes(int(h, 16) for h in re.findall(r"\\x([0-9a-f]{2})", match.group(2)))
                pages.append(int.from_bytes(first[:4], "big"))
    connection = sqlite3.connect(f"file:{journal}?mode=ro", uri=True)
    owners = {page: f"{name} ({kind})" for page, name, kind in
              connection.execute("SELECT pageno, name, pagetype FROM dbstat")}
    connection.close()

if not pages:
    sys.exit("no write-ahead-log frames found in the trace")
owners[1] = owners.get(1, "") + " (page 1: the file's header)"
tally = collections.Counter(owners.get(page, "a free page") for page in pages)
print(f"depth {depth}, {count} appends: {len(pages)} frames, {len(pages) / count:.2f} per append")
for owner, frames in tally.most_common():
    print(f"  {frames / count:6.2f}  {owner}")
