package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/git-convo/git-convo/pkg/agents/source"
)

// printInstallSummary ends install: what to do next, naming the agents whose
// hooks were written (installed, and only those), and how each picks them
// up; all are every agent, for the flags that add them.
func printInstallSummary(w io.Writer, installed, all []source.Agent) {
	var workers, histories []string
	for _, a := range installed {
		workers, histories = append(workers, a.Words().Worker), append(histories, a.Words().Display)
	}
	if len(installed) == 0 {
		var flags []string
		for _, a := range all {
			flags = append(flags, "--"+a.Name()+"=user")
		}
		fmt.Fprintln(w, "\ngit-convo is set up, with no agent hooks: commits are recorded, but no conversation is captured")
		fmt.Fprintf(w, "(git convo install %s adds them). Then:\n", strings.Join(flags, " or "))
	} else {
		fmt.Fprintf(w, "\ngit-convo is set up. Work with %s and commit as usual; then:\n", strings.Join(workers, " or "))
	}
	fmt.Fprintln(w, "  git convo show HEAD    # the conversations behind the last commit")
	fmt.Fprintln(w, "  git convo doctor       # check the setup")
	if len(installed) > 0 {
		fmt.Fprintf(w, "  git convo import       # bring in your existing %s history and link it to past commits\n", strings.Join(histories, " and "))
	}
	for _, a := range installed {
		fmt.Fprintln(w, a.Words().Reload)
	}
}
