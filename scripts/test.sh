#!/usr/bin/env bash
# The test command: every Go test (unit, real-git integration, CLI end to end)
# plus a short run of each fuzz target. Usage: scripts/test.sh [go test flags]
set -euo pipefail
cd "$(dirname "$0")/.."
export CGO_ENABLED=1
go test -count=1 "$@" ./...

# Each fuzz target for a fixed number of inputs, a few seconds each (FUZZTIME=0
# skips; longer runs: FUZZTIME=5m). A count, not a duration: a duration can end
# with a spurious "context deadline exceeded" on a loaded machine.
fuzztime=${FUZZTIME:-200000x}
if [ "$fuzztime" != "0" ]; then
  for target in "FuzzParsePayload ./pkg/cursor" "FuzzNormalizePath ./pkg/cursor" \
                "FuzzParseBlame ./pkg/gitx" "FuzzInstallUninstall ./pkg/githooks" \
                "FuzzParse ./pkg/queue" "FuzzSettingsParse ./pkg/gitx" \
                "FuzzParseHook ./pkg/claude" "FuzzReadTranscript ./pkg/claude" \
                "FuzzText ./pkg/redact" "FuzzDecode ./pkg/notes" \
                "FuzzSanitize ./pkg/term" "FuzzExcerpt ./pkg/textmatch"; do
    set -- $target
    echo "fuzz $1 ($fuzztime)"
    if ! out=$(go test -run '^$' -fuzz "^$1\$" -fuzztime "$fuzztime" "$2" 2>&1); then
      echo "$out"   # the failing input is saved under $2/testdata/fuzz/$1
      exit 1
    fi
    echo "$out" | tail -n 1
  done
fi
