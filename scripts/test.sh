#!/usr/bin/env bash
# The test command: every Go test (unit, real-git integration, CLI end to end)
# plus a short run of each fuzz target. Usage: scripts/test.sh [go test flags]
#
# The fuzz targets are found by scripts/fuzz.sh (every `func Fuzz...`), each
# run for a few seconds (FUZZTIME, default 10000x inputs; FUZZTIME=0 skips).
# Longer fuzzing is its own command: FUZZTIME=5m scripts/fuzz.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
export CGO_ENABLED=1
go test -count=1 "$@" ./...

if [ "${FUZZTIME:-}" != "0" ]; then
  scripts/fuzz.sh
fi
