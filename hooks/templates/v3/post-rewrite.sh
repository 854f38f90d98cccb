# >>> git-convo >>>
# git-convo: carries conversation links to amended and rebased commits (git convo uninstall removes this block).
_convo_map=$(cat)
if [ "${GIT_CONVO:-1}" != "0" ]; then
  _convo_bin={{BIN}}
  [ -x "$_convo_bin" ] || _convo_bin=$(command -v git-convo 2>/dev/null) || _convo_bin=
  if [ -n "$_convo_bin" ]; then
    if [ "${GIT_CONVO_SYNC:-}" = "1" ]; then
      printf '%s\n' "$_convo_map" | "$_convo_bin" record --hook=post-rewrite --rewrite-type="${1-}" >/dev/null 2>&1 || :
    else
      printf '%s\n' "$_convo_map" | "$_convo_bin" record --hook=post-rewrite --rewrite-type="${1-}" >/dev/null 2>&1 &
    fi
  fi
fi
# The rest of this hook reads the same lines on stdin.
exec 0<<_CONVO_EOF_
$_convo_map
_CONVO_EOF_
unset _convo_bin _convo_map
# <<< git-convo <<<
