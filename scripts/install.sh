#!/usr/bin/env bash
# Build git-convo from this checkout and install it, with its man page and
# shell completion, under a prefix whose bin directory is on PATH.
#
#   scripts/install.sh                 # picks /usr/local if writable, else ~/.local
#   PREFIX=/opt/convo scripts/install.sh
#   scripts/install.sh --demo          # then runs `git convo demo` with the binary it
#                                      # installed, so it works before bin is on PATH
#
# Needs Go (1.26+) and a C compiler: SQLite is compiled in through cgo.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"

die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

demo=
for arg in "$@"; do
  case "$arg" in
    --demo) demo=1 ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option $arg (usage: scripts/install.sh [--demo])" ;;
  esac
done

command -v go >/dev/null 2>&1 || die "Go is not installed: get it from https://go.dev/dl/ (1.26 or newer)"
gover=$(go env GOVERSION | sed 's/^go//')
case "$gover" in
  1.2[6-9]*|1.[3-9][0-9]*|[2-9].*) ;;
  *) die "Go $gover is too old: git-convo needs Go 1.26 or newer (https://go.dev/dl/)" ;;
esac
cc=${CC:-gcc}
command -v "$cc" >/dev/null 2>&1 || command -v cc >/dev/null 2>&1 || \
  die "no C compiler found (git-convo compiles SQLite with cgo): install gcc (Debian/Ubuntu: apt-get install gcc; macOS: xcode-select --install)"

on_path() { case ":$PATH:" in *":$1:"*) return 0 ;; esac; return 1; }

if [ -z "${PREFIX:-}" ]; then
  if [ -w /usr/local/bin ] && on_path /usr/local/bin; then
    PREFIX=/usr/local
  else
    PREFIX="$HOME/.local"
  fi
fi
bindir="$PREFIX/bin"
mandir="$PREFIX/share/man/man1"
bashdir="$PREFIX/share/bash-completion/completions"
zshdir="$PREFIX/share/zsh/site-functions"

echo "Building git-convo (the first build compiles SQLite: about a minute)..."
mkdir -p "$bindir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=scripts/lib/build.sh
. scripts/lib/build.sh # linked statically on Linux where the C compiler can
convo_build "$tmp/git-convo" ./cmd/git-convo -trimpath
convo_build "$tmp/git-convo-mcp" ./cmd/git-convo-mcp -trimpath
install -m 0755 "$tmp/git-convo" "$bindir/git-convo"
install -m 0755 "$tmp/git-convo-mcp" "$bindir/git-convo-mcp"

mkdir -p "$mandir" "$bashdir" "$zshdir"
"$bindir/git-convo" man > "$mandir/git-convo.1"
"$bindir/git-convo" completion bash > "$bashdir/git-convo"
"$bindir/git-convo" completion zsh > "$zshdir/_git-convo"

echo "Installed $("$bindir/git-convo" --version)"
echo "  binaries    $bindir/git-convo, $bindir/git-convo-mcp (the MCP server)"
echo "  man page    $mandir/git-convo.1   (git convo --help opens it)"
echo "  completion  $bashdir/git-convo, $zshdir/_git-convo"
if [ -n "$demo" ]; then
  echo
  # Through the path just installed to: the shell that ran this script may
  # not have $bindir on its PATH yet (git would not find `git convo`).
  "$bindir/git-convo" demo
fi
if ! on_path "$bindir"; then
  echo
  echo "$bindir is not on your PATH: \`git convo\` works once it is. Add it, e.g.:"
  echo "  echo 'export PATH=\"$bindir:\$PATH\"' >> ~/.bashrc && export PATH=\"$bindir:\$PATH\""
fi
echo
echo "Next steps:"
[ -n "$demo" ] || echo "  git convo demo              # see it work in a throwaway repo"
echo "  cd <your repo> && git convo install"
echo "  ... work with Cursor's agent, commit as usual, then: git convo show HEAD"
