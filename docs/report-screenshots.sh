#!/usr/bin/env bash
# Makes the report page's screenshots, in the CLI's DocC catalogue, from the demo session (headless Chromium).
#
#   docs/report-screenshots.sh [STACKJOURNAL]    (default .build/debug/stackjournal)
set -euo pipefail
cd "$(dirname "$0")/.."
sj=${1:-.build/debug/stackjournal}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$sj" demo --db "$work/demo.sqlite" >/dev/null
"$sj" report demo-1 --db "$work/demo.sqlite" -o "$work/demo.html" >/dev/null
"$sj" demo --db "$work/busy.sqlite" --actions 400 --session busy 2>/dev/null >/dev/null
"$sj" report busy --db "$work/busy.sqlite" -o "$work/busy.html" >/dev/null
shot() { # FILE SIZE URL
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size="$2" \
    --screenshot="$1" "$3" 2>/dev/null
}
shot Sources/StackJournalCLI/Documentation.docc/report-1.png 1280,800 "file://$work/demo.html#seq=8"
shot Sources/StackJournalCLI/Documentation.docc/report-2.png 1280,800 "file://$work/demo.html#seq=9"
shot Sources/StackJournalCLI/Documentation.docc/report-3.png 1280,800 "file://$work/busy.html#seq=233"
shot Sources/StackJournalCLI/Documentation.docc/report-phone.png 390,844 "file://$work/demo.html#seq=4"
ls -l Sources/StackJournalCLI/Documentation.docc/report-*.png
