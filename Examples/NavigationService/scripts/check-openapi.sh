#!/usr/bin/env bash
# The service's server is generated from its OpenAPI document: swift-openapi-generator's
# command-line tool (built from the local package copy by OpenAPICheck/, about 2 minutes cold)
# turns `Sources/NavigationService/Resources/openapi.yaml` into the types and server of
# `Sources/NavigationService/Generated`, as the `openapi-generator-config.yaml` there says.
#
#   Examples/NavigationService/scripts/check-openapi.sh               # CI: are they current?
#   Examples/NavigationService/scripts/check-openapi.sh --regenerate  # after editing the document
#
# Both generate into a temporary folder; any diagnostic the tool reports (a warning included)
# fails. The check then compares that output with the committed files and fails, with the
# difference, when they are not what the document gives; `--regenerate` replaces them instead.
# The committed files compile as part of the service (`swift build`, `swift test`).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=check
case "${1:-}" in
  "") ;;
  --regenerate) mode=regenerate ;;
  *) echo "usage: $0 [--regenerate]" >&2; exit 2 ;;
esac
document=Sources/NavigationService/Resources/openapi.yaml
committed=Sources/NavigationService/Generated
config=$committed/openapi-generator-config.yaml
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

swift build --package-path OpenAPICheck --product swift-openapi-generator >/dev/null
generator=$(swift build --package-path OpenAPICheck --show-bin-path)/swift-openapi-generator
mkdir "$scratch/generated"
"$generator" generate "$document" --config "$config" --output-directory "$scratch/generated" \
  --diagnostics-output-path "$scratch/diagnostics.yaml" >"$scratch/output" 2>&1 \
  || { cat "$scratch/output" >&2; echo "swift-openapi-generator refused $document" >&2; exit 1; }
# The tool writes `diagnostics: []` when it has nothing to report.
if ! grep -qx 'diagnostics: \[\]' "$scratch/diagnostics.yaml"; then
  echo "swift-openapi-generator reported diagnostics for $document:" >&2
  cat "$scratch/diagnostics.yaml" >&2
  exit 1
fi

if [ "$mode" = regenerate ]; then
  rm -f "$committed"/*.swift
  cp "$scratch"/generated/*.swift "$committed"/
  echo "$committed: regenerated from $document ($(cat "$committed"/*.swift | wc -l) lines)"
  exit 0
fi
if ! diff -ru --exclude=openapi-generator-config.yaml "$committed" "$scratch/generated" \
  >"$scratch/diff"; then
  cat "$scratch/diff" >&2
  echo "check-openapi: $committed is not what swift-openapi-generator makes of $document" >&2
  echo "(the difference is above); run Examples/NavigationService/scripts/check-openapi.sh" >&2
  echo "--regenerate, then build, test and commit the result." >&2
  exit 1
fi
echo "$document: the committed $committed ($(cat "$committed"/*.swift | wc -l) lines) is what the generator makes of it."
