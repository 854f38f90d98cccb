#!/usr/bin/env bash
# Type-check git-convo, cgo included, for the platforms this machine cannot
# link or run: `go vet ./...` for darwin/arm64, darwin/amd64 and windows/amd64
# through cross C compilers (Zig for macOS, MinGW for Windows), installed when
# missing (scripts/lib/toolchain.sh).
#
#   scripts/crossvet.sh                       # all three
#   scripts/crossvet.sh windows/amd64
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib/toolchain.sh
. scripts/lib/toolchain.sh

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(darwin/arm64 darwin/amd64 windows/amd64)
for t in "${targets[@]}"; do
  cc=$(cc_for "$t")
  start=$SECONDS
  CGO_ENABLED=1 GOOS=${t%/*} GOARCH=${t#*/} CC=$cc go vet ./...
  echo "go vet $t: ok ($((SECONDS - start)) s)"
done
