#!/usr/bin/env bash
# Builds the DocC catalogue of every library module with the swift-docc-plugin, failing on any
# warning (an unresolved symbol link, a parameter documented under a wrong name, …). Every
# module is built and the script fails at the end if one had a warning.
#
# The plugin extracts symbols from a build that takes every target's dependencies, postgres-nio
# and SwiftNIO included, so it runs with the `PostgreSQL` trait in the PostgreSQL build's
# directory, .build-pg (about 5 minutes more on a fresh clone; .ci/run builds it first anyway),
# which also gives StackStoragePostgres its documentation. The archives land in
# .build-pg/plugins/Swift-DocC/outputs/.
set -uo pipefail
cd "$(dirname "$0")/.."

failed=()
for module in StackNavigation StackJournalCore StackStorage StackStoragePostgres \
  StackRestoration StackJournalCLI
do
  if ! swift package --scratch-path .build-pg --traits PostgreSQL \
    generate-documentation --warnings-as-errors --target "$module"
  then
    failed+=("$module")
  fi
done
if [ "${#failed[@]}" -gt 0 ]; then
  echo "DocC warnings in: ${failed[*]}" >&2
  exit 1
fi
