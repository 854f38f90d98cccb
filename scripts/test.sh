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
  # A third field is that target's own count when FUZZTIME is not set: the
  # installers write a file per input, so they get fewer inputs.
  for target in "FuzzParsePayload ./pkg/cursor" "FuzzNormalizePath ./pkg/cursor" \
                "FuzzShellCommit ./pkg/cursor" \
                "FuzzParseBlame ./pkg/gitx" "FuzzParseLog ./pkg/gitx" \
                "FuzzParseAddedLines ./pkg/gitx" "FuzzSettingsParse ./pkg/gitx" \
                "FuzzApplyDelta ./pkg/gitx" "FuzzMediumHeader ./pkg/gitx" \
                "FuzzInstallUninstall ./pkg/githooks" \
                "FuzzInstallUninstall ./pkg/claude 10000x" \
                "FuzzParse ./pkg/queue" \
                "FuzzParseHook ./pkg/claude" "FuzzReadTranscript ./pkg/claude" \
                "FuzzText ./pkg/redact" "FuzzDecode ./pkg/notes" "FuzzMetaOf ./pkg/notes" "FuzzLinksMeta ./pkg/notes" \
                "FuzzSanitize ./pkg/term" "FuzzExcerpt ./pkg/textmatch"; do
    set -- $target
    n=$fuzztime
    if [ -z "${FUZZTIME:-}" ] && [ -n "${3:-}" ]; then n=$3; fi
    echo "fuzz $1 $2 ($n)"
    if ! out=$(go test -run '^$' -fuzz "^$1\$" -fuzztime "$n" "$2" 2>&1); then
      echo "$out"   # the failing input is saved under $2/testdata/fuzz/$1
      exit 1
    fi
    echo "$out" | tail -n 1
  done
fi
