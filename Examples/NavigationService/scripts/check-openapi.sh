#!/usr/bin/env bash
# Validates the service's OpenAPI document by the generator's build: swift-openapi-generator
# (the command-line tool, built from the local package copy, about 2 minutes cold) generates
# types and a server from `Sources/NavigationService/Resources/openapi.yaml`; any diagnostic it
# reports (a warning included) fails the check, and so does generated code that does not
# compile against swift-openapi-runtime.
#
#   Examples/NavigationService/scripts/check-openapi.sh [DOCUMENT]
#
# The server itself is still written by hand (see the README's "Not here yet"); this keeps the
# document one that the generator accepts as it is.
set -euo pipefail
cd "$(dirname "$0")/.."
check=OpenAPICheck
document=$(realpath "${1:-Sources/NavigationService/Resources/openapi.yaml}")
generated=$check/Sources/GeneratedAPI
diagnostics=$(mktemp)
output=$(mktemp)
trap 'rm -f "$diagnostics" "$output"' EXIT

swift build --package-path "$check" --product swift-openapi-generator >/dev/null
generator=$(swift build --package-path "$check" --show-bin-path)/swift-openapi-generator
rm -f "$generated"/*.swift
"$generator" generate "$document" --mode types --mode server \
  --output-directory "$generated" --diagnostics-output-path "$diagnostics" >"$output" 2>&1 \
  || { cat "$output" >&2; echo "swift-openapi-generator refused $document" >&2; exit 1; }
# The tool writes `diagnostics: []` when it has nothing to report.
if ! grep -qx 'diagnostics: \[\]' "$diagnostics"; then
  echo "swift-openapi-generator reported diagnostics for $document:" >&2
  cat "$diagnostics" >&2
  exit 1
fi
swift build --package-path "$check" --target GeneratedAPI >/dev/null
echo "$document: generated $(cat "$generated"/*.swift | wc -l) lines of types and server; they compile."
