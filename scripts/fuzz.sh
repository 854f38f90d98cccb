#!/usr/bin/env bash
# Runs every fuzz target of the repository, one after another: each
# `func Fuzz...` in a *_test.go, found anew on every run, so a new target
# runs without being listed anywhere.
#
#   scripts/fuzz.sh                   # each target for FUZZTIME inputs (default 10000x: seconds)
#   FUZZTIME=5m scripts/fuzz.sh       # longer, e.g. before a release: five minutes each
#   FUZZTIME=1000000x scripts/fuzz.sh # or a million inputs each
#   scripts/fuzz.sh FuzzParse         # only the targets whose name matches (grep -E)
#   scripts/fuzz.sh --list            # the targets, "<name> <package>" per line
#
# scripts/test.sh runs it with the default (a target's own smaller count,
# "// fuzz.sh: <n>x" on the line before it, where each input is costly). A count rather than a duration
# by default: a duration can end with a spurious "context deadline exceeded"
# on a loaded machine. On a cold build cache most of the time is building
# each fuzzed package with coverage instrumentation, once.
set -euo pipefail
cd "$(dirname "$0")/.."

targets() {
  grep -r -o --include='*_test.go' --exclude-dir=testdata --exclude-dir=.git '^func Fuzz[A-Za-z0-9_]*(' . |
    sed -E 's#^\./(.*)/[^/]*_test\.go:func (Fuzz[A-Za-z0-9_]*)\($#\2 ./\1#' | sort -k2,2 -k1,1
}

case "${1:-}" in
  --list) targets; exit 0 ;;
  -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
pattern=${1:-.}
fuzztime=${FUZZTIME:-10000x}
if [ "$fuzztime" = "0" ]; then
  echo "fuzz.sh: FUZZTIME=0, no fuzzing"
  exit 0
fi
export CGO_ENABLED=1

n=0
while read -r name pkg; do
  if ! printf '%s\n' "$name" | grep -Eq -- "$pattern"; then continue; fi
  n=$((n + 1))
  # A target whose every input is costly (one builds a git repository)
  # says so on the line before its func, "// fuzz.sh: 200x": the default
  # count then is that one. A FUZZTIME the user gives counts for all.
  t=$fuzztime
  if [ -z "${FUZZTIME:-}" ]; then
    if own=$(grep -h -B1 "^func $name(" "$pkg"/*_test.go | sed -n 's#^// fuzz\.sh: \([0-9][0-9]*x\)$#\1#p') && [ -n "$own" ]; then
      t=$own
    fi
  fi
  echo "fuzz $name $pkg ($t)"
  if ! out=$(go test -run '^$' -fuzz "^$name\$" -fuzztime "$t" "$pkg" 2>&1); then
    echo "$out"   # the failing input is saved under $pkg/testdata/fuzz/$name
    exit 1
  fi
  echo "$out" | tail -n 1
done < <(targets)
if [ "$n" -eq 0 ]; then
  echo "fuzz.sh: no fuzz target matches $pattern" >&2
  exit 1
fi
echo "fuzz.sh: $n targets"
