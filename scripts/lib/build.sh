# shellcheck shell=bash
# How git-convo's binaries are built as they ship: sourced by
# scripts/install.sh, scripts/release.sh, scripts/bench.sh, .ci/run (the
# acceptance run) and the GitHub Action's build from source.
#
#   convo_build OUTPUT PACKAGE [go build flags...]
#
# On Linux the binary is linked statically where the C compiler can link a
# static program (glibc's libc.a from libc6-dev, or musl). A git-convo linked
# to libc.so started 0.4-0.5 ms slower on this project's machine (the dynamic
# loader mapping libc, resolving and probing it, libc's pages faulted in):
# on every command and every agent hook, a tenth of `git convo log -n 1000`
# (docs/performance.md). SQLite's extension loader is then left out
# (sqlite_omit_load_extension): git-convo loads no extension, and glibc's
# dlopen wants its shared libraries at run time. The pure Go resolver and
# user lookup (netgo, osusergo) keep libc's NSS out of the MCP server.
#
# Elsewhere (macOS, Windows), with CONVO_STATIC=0 (or false, no, off), or
# where no static C library is installed, it is linked as Go links it; so
# too, with a note, where the static link itself fails (an older glibc's
# static threads). CONVO_LDFLAGS adds to -ldflags (release.sh's version
# stamp); GOOS and CC name the target.
convo_build() {
  local out=$1 pkg=$2 tags=urfave_cli_no_docs
  shift 2
  if convo_static; then
    local log
    log=$(mktemp)
    if CGO_ENABLED=1 go build -tags "$tags,sqlite_omit_load_extension,netgo,osusergo" \
      -ldflags "${CONVO_LDFLAGS:-} -linkmode external -extldflags -static" "$@" -o "$out" "$pkg" 2>"$log"; then
      cat "$log" >&2
      rm -f "$log"
      return 0
    fi
    echo "note: $pkg did not link statically (set CONVO_STATIC=0 to skip trying); linking as Go does:" >&2
    awk 'NF' "$log" | tail -n 1 | cut -c1-300 | sed 's/^/  /' >&2
    rm -f "$log"
  fi
  # No -ldflags unless asked: a user's GOFLAGS=-ldflags=... then still counts.
  local ld=()
  if [ -n "${CONVO_LDFLAGS:-}" ]; then
    ld=(-ldflags "$CONVO_LDFLAGS")
  fi
  CGO_ENABLED=1 go build -tags "$tags" ${ld[@]+"${ld[@]}"} "$@" -o "$out" "$pkg"
}

# convo_static says whether convo_build tries a static link: a Linux target
# whose C compiler links a static program.
convo_static() {
  case "${CONVO_STATIC:-1}" in
    0 | false | no | off) return 1 ;;
  esac
  [ "${GOOS:-$(go env GOOS)}" = linux ] || return 1
  local probe cc=${CC:-$(go env CC)}
  probe=$(mktemp -d) || return 1
  # shellcheck disable=SC2086 # CC may carry arguments ("zig cc -target ...")
  printf 'int main(void) { return 0; }\n' | $cc -static -x c -o "$probe/p" - >/dev/null 2>&1
  local ok=$?
  rm -rf "$probe"
  return $ok
}
