#!/usr/bin/env bash
# Builds the DocC catalogue of every library module with the swift-docc-plugin, failing on any
# warning (an unresolved symbol link, a parameter documented under a wrong name, …). Every
# module is built, and the script fails at the end if one had a warning. The archives land in
# .build/plugins/Swift-DocC/outputs/. With --with-postgres, StackStoragePostgres too, which
# compiles to nothing without the `PostgreSQL` trait: it is built with the trait, in .build-pg.
set -uo pipefail
cd "$(dirname "$0")/.."

failed=()
build() { # scratch-path-arguments… -- module
  local module=${*: -1}
  if ! swift package "${@:1:$#-1}" generate-documentation --warnings-as-errors --target "$module"
  then
    failed+=("$module")
  fi
}
for module in StackNavigation StackJournalCore StackStorage StackRestoration StackJournalCLI; do
  build "$module"
done
if [ "${1:-}" = "--with-postgres" ]; then
  build --scratch-path .build-pg --traits PostgreSQL StackStoragePostgres
fi
if [ "${#failed[@]}" -gt 0 ]; then
  echo "DocC warnings in: ${failed[*]}" >&2
  exit 1
fi
