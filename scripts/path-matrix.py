#!/usr/bin/env python3
"""Every command of the CLI against a journal reached three ways (issue 39), as a Markdown table.

    scripts/path-matrix.py [STACKJOURNAL] [ROUNDS]

STACKJOURNAL is the binary (default .build/debug/stackjournal); ROUNDS (default 3) how many
times each command races a `compact` and a `prune` of its session. Columns:

* symlink: `--db link.sqlite`, a symbolic link to a journal that another connection holds open,
  with a session ("in-log") still in the write-ahead log. Does the command reach that session?
* file: path: `--db file:j.sqlite`, run where both `j.sqlite` (with a trigger added by hand,
  which writers refuse) and a file named `file:j.sqlite` exist. Does the command read or write
  the file of that name, and leave `j.sqlite` unchanged?
* concurrent compact/prune: the command on a session of 680 entries (two pages) while another
  process compacts that session, then while another prunes it. `log` and `export` are also held
  between two pages (their output not read) while the compaction commits, which is exact.

Needs Python 3 and nothing else; every run is in a fresh temporary directory.
"""

import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading

BINARY = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/stackjournal")
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 3
COMMANDS = [
    "sessions", "log", "show", "diff", "report", "verify", "stats", "export", "import",
    "compact", "prune", "migrate", "demo",
]


def run(arguments, cwd=None):
    result = subprocess.run(
        [BINARY] + arguments, cwd=cwd, capture_output=True, text=True, timeout=300,
        stdin=subprocess.DEVNULL)
    return result.returncode, result.stdout, result.stderr.strip()


def must(arguments, cwd=None):
    status, out, err = run(arguments, cwd)
    if status != 0:
        sys.exit(f"setup failed: {arguments}: {err}")
    return out


def short(err):
    text = err.removeprefix("Error: ").replace("|", "\\|")
    text = re.sub(r"/\S*/stackjournal-matrix-[^/]+/", "", text)
    return text if len(text) <= 90 else text[:87] + "…"


def arguments_for(command, session, db, scratch, export):
    """The command's arguments on `session` of `db`, writing any file into `scratch`."""
    return {
        "sessions": ["sessions"],
        "log": ["log", session, "--ndjson"],
        "show": ["show", session, "--at", "9"],
        "diff": ["diff", session, "0", "9"],
        "report": ["report", session, "-o", os.path.join(scratch, f"{session}-{os.getpid()}.html")],
        "verify": ["verify"],
        "stats": ["stats", session],
        "export": ["export", session],
        "import": ["import", export, "--as", f"imported-{session}"],
        "compact": ["compact", session, "--keep-snapshots", "1"],
        "prune": ["prune", "--session", session],
        "migrate": ["migrate"],
        "demo": ["demo", "--session", f"demo-{session}", "--json"],
    }[command] + ["--db", db]


def symlink_column(directory):
    """Each command through a link to a journal whose newest session is still in the log."""
    real = os.path.join(directory, "real.sqlite")
    link = os.path.join(directory, "link.sqlite")
    must(["demo", "--db", real, "--snapshot-interval", "3", "--json"])
    os.symlink(real, link)
    export = os.path.join(directory, "in.ndjson")
    must(["export", "demo-1", "--db", real, "-o", export])
    results = {}
    for command in COMMANDS:
        holder = sqlite3.connect(real)
        holder.execute("SELECT count(*) FROM sessions").fetchall()
        session = f"in-log-{command}"
        must(["demo", "--db", link, "--session", session, "--snapshot-interval", "3", "--json"])
        status, out, err = run(arguments_for(command, session, link, directory, export))
        seen = session in out or command in ("import", "migrate", "demo", "report", "stats")
        if status == 0 and command == "log":
            seen = len(out.splitlines()) == 10
        if status == 0 and command == "compact":
            seen = "Dropped" in out
        if status == 0 and command == "prune":
            seen = "Deleted 1" in out
        holder.close()
        if status != 0:
            results[command] = f"exit {status}: {short(err)}"
        elif not seen:
            results[command] = "exit 0, **without the session in the log**"
        else:
            results[command] = "exit 0, sees the log"
    return results


def file_column(directory):
    """Each command with `--db file:j.sqlite` beside a `j.sqlite` that writers refuse."""
    plain = os.path.join(directory, "j.sqlite")
    literal = os.path.join(directory, "file:j.sqlite")
    must(["demo", "--db", plain, "--session", "plain-only", "--json"])
    connection = sqlite3.connect(plain)
    connection.execute(
        "CREATE TRIGGER by_hand AFTER INSERT ON sessions BEGIN DELETE FROM snapshots; END")
    connection.commit()
    connection.close()
    other = os.path.join(directory, "other.sqlite")
    must(["demo", "--db", other, "--session", "literal", "--snapshot-interval", "3", "--json"])
    shutil.move(other, literal)
    export = os.path.join(directory, "literal.ndjson")
    must(["export", "literal", "--db", literal, "-o", export])
    with open(plain, "rb") as file:
        before = file.read()
    results = {}
    for command in COMMANDS:
        session = f"literal-{command}"
        must(["import", export, "--as", session, "--db", literal])
        status, out, err = run(
            arguments_for(command, session, "file:j.sqlite", directory, export), cwd=directory)
        with open(plain, "rb") as file:
            untouched = file.read() == before
        listed = run(["sessions", "--db", literal, "--json"])[1]
        if status != 0:
            results[command] = f"exit {status}: {short(err)}"
        elif not untouched:
            results[command] = "exit 0, **wrote j.sqlite**"
        elif command == "demo" and f"demo-{session}" not in listed:
            results[command] = "exit 0, **did not write file:j.sqlite**"
        elif command == "import" and f"imported-{session}" not in listed:
            results[command] = "exit 0, **did not write file:j.sqlite**"
        else:
            results[command] = "exit 0, the file `file:j.sqlite`"
    return results


def held(arguments, meanwhile):
    """Runs a command, holds it after its first line until `meanwhile` ran, then lets it end."""
    process = subprocess.Popen(
        [BINARY] + arguments, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL)
    first = b""
    while not first.endswith(b"\n"):
        byte = os.read(process.stdout.fileno(), 1)
        if not byte:
            break
        first += byte
    meanwhile()
    out = first + process.stdout.read()
    err = process.stderr.read().decode().strip()
    return process.wait(), out.decode(), err


def concurrent_column(directory):
    """Each command racing a `compact` and a `prune` of its session, ROUNDS times each."""
    db = os.path.join(directory, "race.sqlite")
    must(["demo", "--db", db, "--session", "long", "--snapshot-interval", "50", "--actions",
          "600", "--json"])
    export = os.path.join(directory, "long.ndjson")
    must(["export", "long", "--db", db, "-o", export])
    results = {}
    copy = 0
    for command in COMMANDS:
        outcomes = []
        for kind in ["compact", "prune"]:
            for _ in range(ROUNDS):
                copy += 1
                session = f"copy-{copy}"
                must(["import", export, "--as", session, "--db", db])
                other = (["compact", session, "--keep-snapshots", "1"] if kind == "compact"
                         else ["prune", "--session", session]) + ["--db", db]
                outcome = {}

                def race():
                    outcome["other"] = run(other)

                thread = threading.Thread(target=race)
                thread.start()
                status, out, err = run(arguments_for(command, session, db, directory, export))
                thread.join()
                if status == 0:
                    err = check_output(command, out, directory)
                    status = 1 if err else 0
                outcomes.append((kind, status, err))
        if command in ("log", "export"):
            for _ in range(ROUNDS):
                copy += 1
                session = f"copy-{copy}"
                must(["import", export, "--as", session, "--db", db])
                status, out, err = held(
                    arguments_for(command, session, db, directory, export),
                    lambda: must(["compact", session, "--keep-snapshots", "1", "--db", db]))
                if status == 0:
                    err = check_output(command, out, directory)
                    status = 1 if err else 0
                outcomes.append(("compact, held", status, err))
        ok = sum(1 for _, status, _ in outcomes if status == 0)
        counts = {}
        for kind, status, err in outcomes:
            if status:
                key = f"{kind}: {classify(err)}"
                counts[key] = counts.get(key, 0) + 1
        results[command] = f"{ok}/{len(outcomes)} exit 0" + "".join(
            f"; {key} ×{count}" for key, count in sorted(counts.items()))
    return results


def check_output(command, out, directory):
    """What is wrong with the output of a run that ended with exit status 0, if anything."""
    if command == "export":
        path = os.path.join(directory, f"check-{os.getpid()}.ndjson")
        target = os.path.join(directory, f"check-{os.getpid()}.sqlite")
        with open(path, "w") as file:
            file.write(out)
        status, _, err = run(["import", path, "--db", target])
        for name in (path, target):
            if os.path.exists(name):
                os.remove(name)
        return "" if status == 0 else "**exit 0, an export import refuses**"
    if command == "log":
        sequences = [json.loads(line)["sequence"] for line in out.splitlines()]
        if any(b != a + 1 for a, b in zip(sequences, sequences[1:])):
            return "**exit 0, entries skipped**"
    return ""


def classify(err):
    """An error in a few words: the session gone before the command began, the journal changed
    under a read of several steps, a wrong answer found in the output, or the error itself."""
    if err.startswith("**"):
        return err
    if "There is no session" in err:
        return "no such session (gone before the read)"
    if "changed while it was exported" in err or "while its journal was read" in err:
        return "exit 2, says the session changed under the read"
    return f"exit 2: {short(err)}"


def main():
    if not os.access(BINARY, os.X_OK):
        sys.exit(f"no binary at {BINARY}: run swift build first")
    columns = []
    for column in (symlink_column, file_column, concurrent_column):
        directory = tempfile.mkdtemp(prefix="stackjournal-matrix-")
        try:
            columns.append(column(directory))
        finally:
            shutil.rmtree(directory, ignore_errors=True)
    print("| command | symlink | `file:` path | concurrent compact/prune | equivalent IDs |")
    print("|---|---|---|---|---|")
    for command in COMMANDS:
        cells = [column[command] for column in columns]
        print(f"| `{command}` | " + " | ".join(cells) + " | — |")


if __name__ == "__main__":
    main()
