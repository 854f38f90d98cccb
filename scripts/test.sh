#!/usr/bin/env bash
# The test command: every Go test (unit, real-git integration, CLI end to end)
# plus a short run of each fuzz target. Usage: scripts/test.sh [go test flags]
set -euo pipefail
cd "$(dirname "$0")/.."
export CGO_ENABLED=1
go test -count=1 "$@" ./...
