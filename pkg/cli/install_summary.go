package cli

import (
	"fmt"
	"io"
	"strings"
)

// printInstallSummary ends install: what to do next, naming the agents whose
// hooks were written (and only those), and how each picks them up.
func printInstallSummary(w io.Writer, cursorHooks, claudeHooks bool) {
	var agents, histories []string
	if cursorHooks {
		agents, histories = append(agents, "Cursor's agent"), append(histories, "Cursor")
	}
	if claudeHooks {
		agents, histories = append(agents, "Claude Code"), append(histories, "Claude Code")
	}
	if len(agents) == 0 {
		fmt.Fprintln(w, "\ngit-convo is set up, with no agent hooks: commits are recorded, but no conversation is captured")
		fmt.Fprintln(w, "(git convo install --cursor=user or --claude=user adds them). Then:")
	} else {
		fmt.Fprintf(w, "\ngit-convo is set up. Work with %s and commit as usual; then:\n", strings.Join(agents, " or "))
	}
	fmt.Fprintln(w, "  git convo show HEAD    # the conversations behind the last commit")
	fmt.Fprintln(w, "  git convo doctor       # check the setup")
	if len(agents) > 0 {
		fmt.Fprintf(w, "  git convo import       # bring in your existing %s history and link it to past commits\n", strings.Join(histories, " and "))
	}
	if cursorHooks {
		fmt.Fprintln(w, "Restart Cursor if it is running so it loads the new hooks.")
	}
	if claudeHooks {
		fmt.Fprintln(w, "Claude Code reads its hooks at start-up: start a new session (or restart running ones).")
	}
}
