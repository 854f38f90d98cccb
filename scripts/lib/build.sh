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
# Elsewhere (macOS, Windows), with CONVO_STATIC=0, or where no static C
# library is installed, it is linked as Go links it. CONVO_LDFLAGS adds to
# -ldflags (release.sh's version stamp); GOOS and CC name the target.
convo_build() {
  local out=$1 pkg=$2
  shift 2
  local tags=urfave_cli_no_docs ldflags=${CONVO_LDFLAGS:-}
  if convo_static; then
    tags="$tags,sqlite_omit_load_extension,netgo,osusergo"
    ldflags="$ldflags -linkmode external -extldflags -static"
  fi
  CGO_ENABLED=1 go build -tags "$tags" -ldflags "$ldflags" "$@" -o "$out" "$pkg"
}

# convo_static says whether convo_build links statically: a Linux target
# whose C compiler links a static program.
convo_static() {
  [ "${CONVO_STATIC:-1}" != 0 ] || return 1
  [ "${GOOS:-$(go env GOOS)}" = linux ] || return 1
  local probe cc=${CC:-$(go env CC)}
  probe=$(mktemp -d) || return 1
  # shellcheck disable=SC2086 # CC may carry arguments ("zig cc -target ...")
  printf 'int main(void) { return 0; }\n' | $cc -static -x c -o "$probe/p" - >/dev/null 2>&1
  local ok=$?
  rm -rf "$probe"
  return $ok
}
