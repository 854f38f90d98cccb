#!/usr/bin/env bash
# Build release archives of git-convo for people without Go.
#
#   scripts/release.sh                      # every target into dist/
#   TARGETS="linux/amd64" scripts/release.sh
#   BINARIES=git-convo OUT=/tmp/d scripts/release.sh
#
# For each target (default: linux/amd64 linux/arm64 windows/amd64 darwin/arm64
# darwin/amd64) it builds git-convo and git-convo-mcp with cgo (SQLite is
# compiled in) through that target's C cross compiler, checks each binary's
# format with file(1) (and a macOS binary's libraries and signature), and packs
# them with the man page, the bash/zsh completions, README.md and LICENSE into
# git-convo_<version>_<os>_<arch>.tar.gz (.zip for Windows). It also writes the
# source tarball the Homebrew formula builds from, the formula itself with that
# tarball's checksum, and SHA256SUMS over everything.
#
# The version comes from `git describe --tags` (VERSION overrides it) and is
# stamped into the binaries with -ldflags. Missing C cross compilers are
# installed with apt-get, Zig (for macOS) with npm (scripts/lib/toolchain.sh).
# macOS binaries link against text stubs of Apple's frameworks; they have not
# been run on a Mac by this script (docs/release.md says what is checked).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

die() { printf 'release.sh: %s\n' "$*" >&2; exit 1; }
host="$(go env GOHOSTOS)/$(go env GOHOSTARCH)"

targets=${TARGETS:-linux/amd64 linux/arm64 windows/amd64 darwin/arm64 darwin/amd64}
binaries=${BINARIES:-git-convo git-convo-mcp}
out=${OUT:-dist}
mkdir -p "$out"
out=$(cd "$out" && pwd)

command -v go >/dev/null 2>&1 || die "Go is not installed (1.26 or newer: https://go.dev/dl/)"
git rev-parse --git-dir >/dev/null 2>&1 || die "not a git checkout: the version comes from git describe"

# Version: the nearest tag without its "v", else the code's version with the
# commit, so an untagged build never passes for a release.
if [ -z "${VERSION:-}" ]; then
  if desc=$(git describe --tags 2>/dev/null); then
    VERSION=${desc#v}
  else
    base=$(sed -n 's/^[[:space:]]*Version = "\(.*\)"$/\1/p' pkg/cli/version.go)
    VERSION="$base-dev.$(git describe --always)"
  fi
fi
commit=$(git rev-parse HEAD)
commit_time=$(git log -1 --format=%ct HEAD)
echo "git-convo $VERSION ($commit), targets: $targets"

# shellcheck source=scripts/lib/toolchain.sh
. scripts/lib/toolchain.sh
# shellcheck source=scripts/lib/build.sh
. scripts/lib/build.sh # convo_build: as install.sh builds (static on Linux where the C compiler can)

# file(1) must name the format and architecture we asked for.
want_format() {
  case "$1" in
    linux/amd64) echo 'ELF 64-bit LSB .*x86-64' ;;
    linux/arm64) echo 'ELF 64-bit LSB .*ARM aarch64' ;;
    windows/amd64) echo 'PE32\+ executable .*x86-64' ;;
    darwin/arm64) echo 'Mach-O 64-bit arm64 executable' ;;
    darwin/amd64) echo 'Mach-O 64-bit x86_64 executable' ;;
  esac
}

need file file
need zip zip

pkg=github.com/git-convo/git-convo/pkg/cli
ldflags="-s -w -X $pkg.Version=$VERSION -X $pkg.commit=$commit -X main.version=$VERSION"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Build from the commit, not the working tree: what is released is exactly
# what the source tarball holds, whatever is being edited meanwhile.
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
  echo "note: uncommitted changes are not in the release (it builds $commit)" >&2
fi
git archive --format=tar --prefix=src/ HEAD | tar -C "$work" -xf -
cd "$work/src"

build() { # build TARGET DIR BINARY...
  local t=$1 dir=$2 cc ext="" b flags=$ldflags cgo_ldflags=${CGO_LDFLAGS:-} stubs
  shift 2
  cc=$(cc_for "$t")
  case "$t" in
    windows/*) ext=.exe ;;
    darwin/*)
      # Zig's linker takes no -x, which Go's -s asks for: keep the symbol table.
      flags=${ldflags#-s }
      # A fixed directory: CGO_LDFLAGS is part of Go's cache key for SQLite.
      stubs=${XDG_CACHE_HOME:-$HOME/.cache}/git-convo/darwin-stubs-$(go env GOVERSION)
      darwin_stubs "$stubs"
      cgo_ldflags="-F$stubs $cgo_ldflags" ;;
  esac
  mkdir -p "$dir"
  for b in "$@"; do
    GOOS=${t%/*} GOARCH=${t#*/} CC=$cc CGO_LDFLAGS=$cgo_ldflags CONVO_LDFLAGS=$flags \
      convo_build "$dir/$b$ext" "./cmd/$b" -trimpath
    local got
    got=$(file -b "$dir/$b$ext")
    echo "  $t $b$ext: $got"
    printf '%s\n' "$got" | grep -Eq "$(want_format "$t")" || die "$b$ext for $t is not a $t binary: $got"
    if [ "${t%/*}" = darwin ]; then check_macho "$t" "$dir/$b"; fi
  done
}

# A macOS binary must bind only to libraries every Mac has, and an arm64 one
# must be signed (ad hoc, as Zig's linker does): macOS kills it otherwise.
check_macho() {
  local loads
  need python3 python3
  loads=$(python3 "$root/scripts/lib/macho_loads.py" "$2")
  echo "    $(printf '%s' "$loads" | tr '\n' ' ')"
  if printf '%s\n' "$loads" | grep '^dylib ' | grep -Ev '^dylib (/usr/lib/libSystem\.B\.dylib|/System/Library/Frameworks/)' >&2; then
    die "$2 needs a library macOS does not have"
  fi
  if [ "$1" = darwin/arm64 ] && ! printf '%s\n' "$loads" | grep -qx signed; then
    die "$2 is not signed: macOS would kill it"
  fi
}

# The man page and completions come from a binary for this machine; they are
# the same text on every platform.
echo "== docs (from a $host build)"
build "$host" "$work/host" git-convo
"$work/host/git-convo" man >"$work/git-convo.1"
"$work/host/git-convo" completion bash >"$work/git-convo.bash"
"$work/host/git-convo" completion zsh >"$work/_git-convo"

archives=()
for t in $targets; do
  echo "== $t"
  name="git-convo_${VERSION}_${t%/*}_${t#*/}"
  dir="$work/$name"
  # shellcheck disable=SC2086 # BINARIES is a list
  build "$t" "$dir" $binaries
  mkdir -p "$dir/man/man1" "$dir/completions"
  cp README.md LICENSE "$dir/"
  cp "$work/git-convo.1" "$dir/man/man1/"
  cp "$work/git-convo.bash" "$dir/completions/git-convo.bash"
  cp "$work/_git-convo" "$dir/completions/_git-convo"
  find "$dir" -exec touch -h -d "@$commit_time" {} +
  if [ "${t%/*}" = windows ]; then
    rm -f "$out/$name.zip"
    (cd "$work" && zip -qrX "$out/$name.zip" "$name")
    archives+=("$name.zip")
  else
    tar -C "$work" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$commit_time" -cf - "$name" |
      gzip -9n >"$out/$name.tar.gz"
    archives+=("$name.tar.gz")
  fi
done

# The source tarball Homebrew builds from, and the formula pointing at it.
src="git-convo-$VERSION.tar.gz"
git -C "$root" archive --format=tar --prefix="git-convo-$VERSION/" HEAD | gzip -9n >"$out/$src"
archives+=("$src")
src_sum=$(sha256sum "$out/$src" | cut -d' ' -f1)
sed -e "s|^  url .*|  url \"${RELEASE_URL:-https://github.com/git-convo/git-convo/releases/download/v$VERSION}/$src\"|" \
    -e "s|^  sha256 .*|  sha256 \"$src_sum\"|" \
    -e "s|^  version .*|  version \"$VERSION\"|" \
    packaging/homebrew/git-convo.rb >"$out/git-convo.rb"

(cd "$out" && sha256sum "${archives[@]}" git-convo.rb >SHA256SUMS)
echo "== $out"
(cd "$out" && ls -l "${archives[@]}" git-convo.rb SHA256SUMS)
