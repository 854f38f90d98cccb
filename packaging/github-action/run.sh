#!/usr/bin/env bash
# The git-convo action's one step. It never fails the job: every problem is
# a line in the log and in the job summary, and the script exits 0.
set -u

say() { echo "git-convo: $*"; }
summary() { if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat >>"$GITHUB_STEP_SUMMARY"; else cat; fi; }
tmp=${RUNNER_TEMP:-$(mktemp -d)}
action=${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")" && pwd)}

# install puts git-convo on PATH: the release archive for this runner, or a
# build of the action's own source.
install() {
  if [ -n "${CONVO_BIN:-}" ]; then # a directory that already holds git-convo (self-hosted runners, tests)
    export PATH="$CONVO_BIN:$PATH"
    return 0
  fi
  bin="$tmp/git-convo-bin"
  mkdir -p "$bin"
  export PATH="$bin:$PATH"
  if [ "${CONVO_FROM_SOURCE:-false}" = "true" ]; then
    say "building from source"
    (cd "$action/../.." && . scripts/lib/build.sh &&
      convo_build "$bin/git-convo" ./cmd/git-convo -trimpath &&
      convo_build "$bin/git-convo-mcp" ./cmd/git-convo-mcp -trimpath) || return 1
    return 0
  fi
  os=$(uname -s | tr '[:upper:]' '[:lower:]')
  case $(uname -m) in
    x86_64 | amd64) arch=amd64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) say "no release archive for $(uname -m): set build-from-source: true"; return 1 ;;
  esac
  repo=${CONVO_ACTION_REPO:-git-convo/git-convo}
  tag=${CONVO_VERSION:-latest}
  if [ "$tag" = latest ]; then
    tag=$(curl -fsSL -H "Authorization: Bearer $GITHUB_TOKEN" "$CONVO_API/repos/$repo/releases/latest" |
      grep -o '"tag_name": *"[^"]*"' | head -n 1 | sed 's/.*"\([^"]*\)"$/\1/')
    [ -n "$tag" ] || { say "no latest release of $repo"; return 1; }
  fi
  ver=${tag#v}
  name="git-convo_${ver}_${os}_${arch}"
  url="${GITHUB_SERVER_URL:-https://github.com}/$repo/releases/download/$tag/$name.tar.gz"
  say "installing $url"
  curl -fsSL "$url" | tar -xzf - -C "$tmp" || return 1
  cp "$tmp/$name"/git-convo* "$bin/" || return 1
}

main() {
  if [ -z "${CONVO_BASE:-}" ] || [ -z "${CONVO_HEAD:-}" ]; then
    say "no base or head: run on pull_request events, or give base and head" | tee >(summary)
    return 0
  fi
  remote=${CONVO_REMOTE:-origin}
  # The notes, where teammates' clones shared them; and both ends of the range.
  git fetch --quiet --no-tags "$remote" "+refs/notes/convo*:refs/notes/remotes/$remote/convo*" ||
    say "no notes fetched from $remote (refs/notes/convo): nothing shared yet?"
  # Other tools' notes (git-ai's, Agent Trace records; docs/interop.md), where the
  # remote has them: pr reads them beside git-convo's. git-ai's go where install
  # puts them, never into refs/notes/ai.
  for ref in $(git ls-remote --refs "$remote" refs/notes/ai refs/notes/agent-trace 2>/dev/null | cut -f2); do
    dst=$ref
    [ "$ref" = refs/notes/ai ] && dst="refs/notes/remotes/$remote/ai"
    git fetch --quiet --no-tags "$remote" "+$ref:$dst" || say "cannot fetch $ref"
  done
  for c in "$CONVO_BASE" "$CONVO_HEAD"; do
    git cat-file -e "$c^{commit}" 2>/dev/null || git fetch --quiet --no-tags "$remote" "$c" || say "cannot fetch $c"
  done
  if ! install; then
    say "could not install git-convo: no report" | tee >(summary)
    return 0
  fi
  git convo version || true
  range="$CONVO_BASE..$CONVO_HEAD"
  run_url="${GITHUB_SERVER_URL:-https://github.com}/${GITHUB_REPOSITORY:-}/actions/runs/${GITHUB_RUN_ID:-}"
  where="the full report is in [this run's job summary]($run_url)"
  if ! git convo pr "$range" --format markdown --max-length 1000000 \
    --full-report "git convo pr $range --format html, run locally, has it all" >"$tmp/git-convo-full.md" 2>"$tmp/git-convo.err"; then
    { say "git convo pr failed:"; cat "$tmp/git-convo.err"; } | tee >(summary)
    return 0
  fi
  summary <"$tmp/git-convo-full.md"
  git convo pr "$range" --format markdown --full-report "$where" >"$tmp/git-convo-pr.md" 2>/dev/null || return 0
  case ${CONVO_TARGET:-description} in
    none) return 0 ;;
    description | comment) ;;
    *) say "target ${CONVO_TARGET}: want description, comment or none" | tee >(summary); return 0 ;;
  esac
  if [ "${CONVO_EVENT:-}" = pull_request ] && [ -n "${CONVO_HEAD_REPO:-}" ] && [ "$CONVO_HEAD_REPO" != "${GITHUB_REPOSITORY:-}" ]; then
    printf '\n> git-convo: not written to the pull request: it comes from a fork (%s), and a fork'"'"'s pull request gets a read-only token. The report is here only.\n' \
      "$CONVO_HEAD_REPO" | summary
    say "fork pull request: read-only token, the report is in the job summary only"
    return 0
  fi
  if ! command -v go >/dev/null; then
    say "no Go on this runner to run the upsert: the report is in the job summary only" | tee >(summary)
    return 0
  fi
  msg=$(cd "$action/upsert" && go run . -api "$CONVO_API" -repo "${GITHUB_REPOSITORY:-}" -pr "${CONVO_PR:-}" \
    -report "$tmp/git-convo-pr.md" -mode "$CONVO_TARGET" -where "$where" 2>&1)
  say "${msg#git-convo: }"
  case $msg in *"job summary only"*) printf '\n> %s\n' "$msg" | summary ;; esac
}

main || say "unexpected failure (the job goes on)"
exit 0
