# >>> git-convo >>>
# git-convo: queues this commit for linking to the AI conversations behind it, with shell
# builtins only; the next git-convo command records it (git convo uninstall removes this block).
if [ "${GIT_CONVO:-1}" != "0" ]; then
  # Only a regular file (or none yet): a FIFO or a link put there must never block the commit.
  _convo_q={{QUEUE}}
  if [ ! -L "$_convo_q" ] && { [ -f "$_convo_q" ] || [ ! -e "$_convo_q" ]; }; then
    { printf 'gcq1\000post-commit\000%s\000%s\000%s\000\n' "$PWD" "${GIT_DIR-}" "${GIT_WORK_TREE-}" >>"$_convo_q"; } 2>/dev/null || :
  fi
  unset _convo_q
  if [ "${GIT_CONVO_SYNC:-}" = "1" ]; then
    _convo_bin={{BIN}}
    [ -x "$_convo_bin" ] || _convo_bin=$(command -v git-convo 2>/dev/null) || _convo_bin=
    if [ -n "$_convo_bin" ]; then
      "$_convo_bin" record --hook=post-commit </dev/null >/dev/null 2>&1 || :
    fi
    unset _convo_bin
  fi
fi
# <<< git-convo <<<
